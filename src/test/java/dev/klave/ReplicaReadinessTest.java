package dev.klave;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.audit.AuditFilter;
import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditStore;
import dev.klave.audit.AuditWriter;
import dev.klave.audit.Channel;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code /readyz}'s verdict: the database answering, and an audit writer still alive. */
class ReplicaReadinessTest {
    private static final AuditRow ROW = AuditRow.opened("01a00000-0000-7000-8000-000000000001",
            Instant.parse("2026-11-27T10:00:00Z"), new AuditRow.Actor(Optional.empty(), Optional.empty(),
                    Optional.empty(), Optional.empty()), "prod-1", new AuditRow.Request("list", Optional.empty(),
                    Optional.empty(), Optional.empty(), "/api", Channel.PROXY, AuditRow.DryRun.NO));

    /** A store whose every write dies of an {@link Error}, as a defect in the writer would. */
    private static final class FatalStore implements AuditStore {
        @Override
        public long write(List<AuditRow> rows, List<AuditRow.Completion> completions) {
            throw new LinkageError("a class the writer needs is missing");
        }

        @Override
        public int parallelBatches() {
            return 1;
        }

        @Override
        public List<AuditRow> find(AuditFilter filter, Optional<dev.klave.audit.AuditCursor> after, int offset,
                int limit) {
            return List.of();
        }

        @Override
        public long count(AuditFilter filter, long atMost) {
            return 0;
        }

        @Override
        public Optional<AuditRow> findById(String id) {
            return Optional.empty();
        }

        @Override
        public List<Bucket> activity(AuditFilter filter, java.time.Duration bucket) {
            return List.of();
        }
    }

    @Test
    void aReplicaWhoseAuditWriterDiedIsNotReadyAndSaysWhy() throws Exception {
        try (AuditWriter writer = new AuditWriter(new FatalStore(), Duration.ofSeconds(5)).start()) {
            ReplicaReadiness readiness = new ReplicaReadiness(timeout -> true, writer);
            assertThat(readiness.problem()).isEmpty();

            try {
                writer.record(ROW).get(5, TimeUnit.SECONDS);
            } catch (ExecutionException refused) {
                // The request of this row is refused; the writer is gone.
            }

            assertThat(readiness.problem()).contains("audit writer stopped");
        }
    }

    @Test
    void aDatabaseThatDoesNotAnswerInTwoSecondsIsTheSpecsText() {
        try (AuditWriter writer = new AuditWriter(new FatalStore(), Duration.ofSeconds(5)).start()) {
            ReplicaReadiness readiness = new ReplicaReadiness(timeout -> !timeout.equals(Duration.ofSeconds(2)), writer);

            assertThat(readiness.problem()).contains("database unavailable");
        }
    }
}
