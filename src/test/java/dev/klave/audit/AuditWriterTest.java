package dev.klave.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.Login;
import dev.klave.account.Principal;
import dev.klave.account.SubjectId;
import dev.klave.store.JdbiAuditStore;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Completions share the commit of the next rows instead of committing alone, and are never
 * lost or hidden: written when the hold passes with no rows, when the writer closes, and before
 * any audit read.
 */
class AuditWriterTest {
    private static final Instant AT = Instant.parse("2026-11-25T10:00:00Z");

    private final AuditIds ids = new AuditIds(new TestingClock());
    private TestingDatabase database;
    private JdbiAuditStore store;

    @BeforeEach
    void open() {
        database = TestingDatabase.sqlite();
        store = new JdbiAuditStore(database.database());
    }

    @AfterEach
    void close() {
        database.close();
    }

    private AuditRow row(String id) {
        return new AuditRow(id, AT, Optional.of("s-1"), Optional.of("ana"), Optional.of("cred-1"), "prod-1",
                Optional.of("team-a"), "list", Optional.of("pods"), Optional.empty(),
                "/api/v1/namespaces/team-a/pods", Optional.of("10.0.0.7"), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    /** A request whose row is durable and whose answer has been handed to the writer. */
    private String answered(AuditWriter writer, int status, Optional<String> error) throws Exception {
        String id = ids.next();
        writer.record(row(id)).get(5, TimeUnit.SECONDS);
        writer.complete(new AuditRow.Completion(id, status, error, AT));
        return id;
    }

    private Optional<Integer> status(String id) {
        return store.findById(id).orElseThrow().status();
    }

    @Test
    void aCompletionWaitsForTheNextRowsAndSharesTheirCommit() throws Exception {
        try (AuditWriter writer = new AuditWriter(store, () -> 7, Duration.ofSeconds(30))) {
            String first = answered(writer, 200, Optional.empty());
            Thread.sleep(300);
            assertThat(status(first)).as("held for the next rows").isEmpty();

            String second = ids.next();
            long value = writer.record(row(second)).get(5, TimeUnit.SECONDS);

            assertThat(value).isEqualTo(7);
            assertThat(status(first)).as("committed with the second row").contains(200);
            assertThat(status(second)).isEmpty();
        }
    }

    @Test
    void withNoRowsComingACompletionIsWrittenOnceTheHoldPasses() throws Exception {
        try (AuditWriter writer = new AuditWriter(store, () -> 0, Duration.ofMillis(100))) {
            String id = answered(writer, 499, Optional.of("cliente desconectado"));

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (status(id).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(status(id)).contains(499);
            assertThat(store.findById(id).orElseThrow().error()).contains("cliente desconectado");
        }
    }

    @Test
    void closingWritesHeldCompletions() throws Exception {
        AuditWriter writer = new AuditWriter(store, () -> 0, Duration.ofSeconds(30));
        String id = answered(writer, 200, Optional.empty());
        Thread.sleep(300);
        assertThat(status(id)).as("held").isEmpty();

        long started = System.nanoTime();
        writer.close();

        assertThat(status(id)).contains(200);
        assertThat(System.nanoTime() - started).as("close does not wait out the hold")
                .isLessThan(TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    void flushWritesHeldCompletionsAtOnce() throws Exception {
        try (AuditWriter writer = new AuditWriter(store, () -> 0, Duration.ofSeconds(30))) {
            String id = answered(writer, 403, Optional.of("prohibido"));

            writer.flush().get(5, TimeUnit.SECONDS);

            assertThat(status(id)).contains(403);
        }
    }

    @Test
    void anAuditReadRightAfterTheAnswerFindsItsStatus() throws Exception {
        try (AuditWriter writer = new AuditWriter(store, () -> 0, Duration.ofSeconds(30))) {
            AuditQueries queries = new AuditQueries(store, writer);
            Principal admin = new Principal(new SubjectId("6f1c2a8e-3b7d-4c51-9a0e-2d8f4b6c1e93"), new Login("ana"), true, "session");
            String first = ids.next();
            String second = ids.next();
            writer.record(row(first)).get(5, TimeUnit.SECONDS);
            writer.record(row(second)).get(5, TimeUnit.SECONDS);
            writer.complete(new AuditRow.Completion(first, 200, Optional.empty(), AT));

            assertThat(queries.one(first, admin).status()).contains(200);

            writer.complete(new AuditRow.Completion(second, 201, Optional.empty(), AT));
            AuditFilter all = new AuditFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), true);
            assertThat(queries.page(all, 1, admin).events()).filteredOn(row -> row.id().equals(second))
                    .singleElement().extracting(AuditRow::status).isEqualTo(Optional.of(201));
        }
    }

    @Test
    void afterCloseAFlushIsDoneAtOnce() throws Exception {
        AuditWriter writer = new AuditWriter(store, () -> 0, Duration.ofSeconds(30));
        writer.close();

        assertThat(writer.flush()).succeedsWithin(Duration.ofSeconds(1));
    }
}
