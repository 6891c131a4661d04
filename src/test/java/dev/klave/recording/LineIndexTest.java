package dev.klave.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The lines a session printed, for search: joined across events, escapes dropped, each with its moment. */
class LineIndexTest {
    private static String chunk(String... events) {
        return String.join("", events);
    }

    @Test
    void linesAreJoinedAcrossEventsCleanedAndTimedByTheirFirstPiece() {
        LineIndex index = new LineIndex();
        List<LineIndex.Line> first = index.feed("r1", chunk(Cast.event(0.5, "o", "$ ls\r\n"),
                Cast.event(1.25, "o", "\u001B[1;34mbin\u001B[0m  et"), Cast.event(2.0, "r", "100x30")));
        List<LineIndex.Line> second = index.feed("r1", chunk(Cast.event(3.0, "o", "c\r\nPermission denied"),
                Cast.event(3.5, "o", "\u0007\r\n")));
        List<LineIndex.Line> last = index.feed("r1", Cast.event(9.0, "o", "exit"));

        assertThat(first).containsExactly(new LineIndex.Line(0.5, "$ ls"));
        assertThat(second).containsExactly(new LineIndex.Line(1.25, "bin  etc"),
                new LineIndex.Line(3.0, "Permission denied"));
        assertThat(last).isEmpty();
        assertThat(index.end("r1")).containsExactly(new LineIndex.Line(9.0, "exit"));
        assertThat(index.end("r1")).isEmpty();
    }

    @Test
    void aVeryLongLineIsCut() {
        LineIndex index = new LineIndex();
        List<LineIndex.Line> lines = index.feed("r2", Cast.event(0, "o", "x".repeat(5000) + "\n"));
        assertThat(lines.get(0).text()).hasSize(LineIndex.MAX_LINE);
    }
}
