package dev.klave.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a recording's parts refuse, and what one that begins holds. */
class RecordingPartsTest {
    @Test
    void aTerminalHasAtLeastOneColumnAndOneRow() {
        assertThatThrownBy(() -> new Terminal.Size(0, 24)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Terminal.Size(80, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new Terminal.Size(1, 1).width()).isEqualTo(1);
        assertThat(Terminal.opening(Terminal.Tty.NONE).size()).isEqualTo(new Terminal.Size(80, 24));
    }

    @Test
    void aRecordingHoldsNoNegativeBytes() {
        assertThatThrownBy(() -> new Recording.Progress(Recording.State.COMPLETE, Optional.empty(), -1,
                Optional.empty(), Optional.empty())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRecordingThatBeginsHasNothingStoredAndNoEnd() {
        Recording.Owner eva = new Recording.Owner(new SubjectId(UUID.randomUUID().toString()), "eva");
        Recording.Target box = new Recording.Target(new ClusterId("prod"), "team-a", "box", Optional.empty(), "sh");
        Recording started = Recording.started("audit-1", eva, box, Terminal.opening(Terminal.Tty.ALLOCATED),
                Stdin.RECORDED, Instant.EPOCH);

        assertThat(started.progress()).isEqualTo(new Recording.Progress(Recording.State.RECORDING, Optional.empty(),
                0, Optional.empty(), Optional.empty()));
    }

    @Test
    void theStoredBooleansReadBackAsTheyWereWritten() {
        for (boolean value : new boolean[] {true, false}) {
            assertThat(Stdin.of(value).recorded()).isEqualTo(value);
            assertThat(Terminal.Tty.of(value).allocated()).isEqualTo(value);
        }
    }
}
