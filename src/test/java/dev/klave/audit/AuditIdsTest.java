package dev.klave.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.TestingClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AuditIdsTest {
    private static final Instant AT = Instant.parse("2026-11-25T10:00:00Z");

    @Test
    void anAuditIdIsAVersion7UuidCarryingItsMillisecond() {
        UUID id = UUID.fromString(new AuditIds(new TestingClock(AT)).next());

        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(AT.toEpochMilli());
    }

    @Test
    void laterIdsSortAfterEarlierOnesAndNoneRepeats() {
        TestingClock clock = new TestingClock(AT);
        AuditIds ids = new AuditIds(clock);
        Set<String> seen = new HashSet<>();
        String previous = "";
        for (int i = 0; i < 1_000; i++) {
            String id = ids.next();
            assertThat(seen.add(id)).isTrue();
            assertThat(id).isGreaterThan(previous);
            previous = id;
            clock.advance(Duration.ofMillis(1));
        }
    }
}
