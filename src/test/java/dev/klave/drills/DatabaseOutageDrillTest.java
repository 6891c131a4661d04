package dev.klave.drills;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.drills.DrillLoad.Outcome;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY.md, "database stopped and restarted under proxy load": while clients keep sending,
 * the database goes away and comes back. Klave answers 503 meanwhile, forwards nothing whose audit
 * row is not written, and serves again without a restart of its own.
 */
class DatabaseOutageDrillTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> OUTAGE_ANSWERS = Set.of("Klave no puede consultar su base de datos",
            "Klave no puede registrar la petición");
    private static final int REFUSED_DURING_OUTAGE = 12;

    @TempDir
    Path directory;

    @Test
    void postgresStoppedAndRestartedUnderLoad() throws Exception {
        int port = freePort();
        Path data = Files.createDirectories(directory.resolve("pgdata"));
        EmbeddedPostgres postgres = startPostgres(data, port);
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings
                        .with("SERVICE_DATABASE_URL", "postgres://postgres@127.0.0.1:" + port + "/postgres")
                        .with("SERVICE_AUDIT_TIMEOUT", "2s"))) {
            Drills.People people = Drills.prepare(klave, cluster);
            List<Outcome> outcomes;
            try (DrillLoad load = new DrillLoad(klave.http(), people.token(), 4)) {
                Eventually.until("requests pass", Duration.ofSeconds(10), () -> load.lastAnswered200(20));
                postgres.close();
                lastsUntilMetByTheLoad(load);
                postgres = startPostgres(data, port);
                Eventually.until("requests pass again, Klave not restarted", Duration.ofSeconds(60),
                        () -> load.lastAnswered200(20));
                outcomes = load.outcomes();
            }

            assertNothingForwardedUnaudited(klave, cluster, people.admin(), outcomes);
        } finally {
            postgres.close();
        }
    }

    /**
     * SQLite has no server to stop; what stops it is another process holding its write lock (a
     * backup, a hand-run {@code sqlite3}). Reads go on; audit rows cannot be written, so requests
     * are refused until the lock is let go.
     */
    @Test
    void sqliteLockedByAnotherProcessUnderLoad() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings
                        .with("SERVICE_DATABASE_URL", "sqlite:" + directory.resolve("klave.db"))
                        .with("SERVICE_AUDIT_TIMEOUT", "1s"))) {
            Drills.People people = Drills.prepare(klave, cluster);
            List<Outcome> outcomes;
            try (DrillLoad load = new DrillLoad(klave.http(), people.token(), 4)) {
                Eventually.until("requests pass", Duration.ofSeconds(10), () -> load.lastAnswered200(20));
                try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + directory.resolve("klave.db"));
                        Statement statement = other.createStatement()) {
                    statement.execute("BEGIN EXCLUSIVE");
                    lastsUntilMetByTheLoad(load);
                    statement.execute("ROLLBACK");
                }
                Eventually.until("requests pass again", Duration.ofSeconds(30), () -> load.lastAnswered200(20));
                outcomes = load.outcomes();
            }

            assertNothingForwardedUnaudited(klave, cluster, people.admin(), outcomes);
        }
    }

    /**
     * Returns once the load has met the outage {@link #REFUSED_DURING_OUTAGE} times: however fast
     * this machine is, the outage then lasted long enough to be tested, not merely begun.
     */
    private static void lastsUntilMetByTheLoad(DrillLoad load) {
        Eventually.until(REFUSED_DURING_OUTAGE + " requests answered 503 during the outage", Duration.ofSeconds(30),
                () -> load.outcomes().stream().filter(outcome -> outcome.status() == 503).count()
                        >= REFUSED_DURING_OUTAGE);
    }

    private static void assertNothingForwardedUnaudited(TestingKlave klave, ClusterSimulator cluster, String admin,
            List<Outcome> outcomes) throws Exception {
        assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome.status() == 200
                || (outcome.status() == 503 && OUTAGE_ANSWERS.contains(outcome.message())))
                .as("request %d: %d %s", outcome.number(), outcome.status(), outcome.message()).isTrue());
        assertThat(outcomes).filteredOn(outcome -> outcome.status() == 503).isNotEmpty();
        assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome.auditId()).isPresent());
        Set<Integer> reached = DrillLoad.reached(cluster);
        Set<String> rows = Set.copyOf(klave.klave().database().withHandle(handle -> handle
                .select("SELECT id FROM audit").map((row, context) -> dev.klave.store.AuditKeys.text(row.getObject("id")))
                .list()));
        for (Outcome outcome : outcomes) {
            if (outcome.status() == 503) {
                assertThat(reached).as("refused request %d reached the cluster", outcome.number())
                        .doesNotContain(outcome.number());
                continue;
            }
            assertThat(reached).as("answered request %d", outcome.number()).contains(outcome.number());
            assertThat(rows).as("audit row of forwarded request %d", outcome.number())
                    .contains(outcome.auditId().orElseThrow());
        }
        // And through the API, for the last one forwarded.
        Outcome last = outcomes.stream().filter(outcome -> outcome.status() == 200).reduce((a, b) -> b).orElseThrow();
        HttpResponse<String> row = klave.http().get("/api/audit/" + last.auditId().orElseThrow(), "Cookie", admin);
        assertThat(row.statusCode()).as(row.body()).isEqualTo(200);
        assertThat(JSON.readTree(row.body()).get("verb").asText()).isEqualTo("list");
    }

    private static EmbeddedPostgres startPostgres(Path data, int port) throws Exception {
        return EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false).setPort(port).start();
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
