package dev.klave.drills;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.drills.DrillLoad.Outcome;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY.md, "disk full under SQLite": Klave's database on a filesystem of 16 MiB made for
 * the test, filled to the last byte while requests come in. Requests are refused with 503 while no
 * audit row fits, nothing is forwarded without its row, requests pass again once space is freed
 * (no restart), and the database is intact afterwards. Needs a tmpfs mount (root); where this
 * machine does not allow one, the drill says so and is skipped.
 */
class DiskFullDrillTest {
    @TempDir
    Path directory;

    @Test
    void sqliteOnAFullDiskRefusesClearlyAndStaysIntact() throws Exception {
        Path mount = Files.createDirectories(directory.resolve("small"));
        mountSmallFilesystem(mount);
        Path database = mount.resolve("klave.db");
        try {
            List<Outcome> outcomes;
            try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                    TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings
                            .with("SERVICE_DATABASE_URL", "sqlite:" + database)
                            .with("SERVICE_AUDIT_TIMEOUT", "2s"))) {
                Drills.People people = Drills.prepare(klave, cluster);
                Path filler = mount.resolve("filler");
                try (DrillLoad load = new DrillLoad(klave.http(), people.token(), 2)) {
                    Eventually.until("requests pass", Duration.ofSeconds(10), () -> load.lastAnswered200(10));
                    fill(filler);
                    Eventually.until("the full disk is answered 503", Duration.ofSeconds(60), () -> load.outcomes()
                            .stream().anyMatch(outcome -> outcome.status() == 503));
                    Files.delete(filler);
                    Eventually.until("requests pass again, Klave not restarted", Duration.ofSeconds(30),
                            () -> load.lastAnswered200(20));
                    outcomes = load.outcomes();
                }

                assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome.status() == 200 || (outcome.status() == 503
                        && outcome.message().equals("Klave no puede registrar la petición")))
                        .as("request %d: %d %s", outcome.number(), outcome.status(), outcome.message()).isTrue());
                Set<Integer> reached = DrillLoad.reached(cluster);
                Set<String> rows = Set.copyOf(klave.klave().database().withHandle(handle -> handle
                        .select("SELECT id FROM audit").map((row, context) -> dev.klave.store.AuditKeys.text(row.getObject("id")))
                        .list()));
                for (Outcome outcome : outcomes) {
                    if (outcome.status() == 503) {
                        assertThat(reached).doesNotContain(outcome.number());
                    } else {
                        assertThat(rows).as("row of forwarded request %d", outcome.number())
                                .contains(outcome.auditId().orElseThrow());
                    }
                }
            }
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
                    Statement statement = connection.createStatement();
                    ResultSet check = statement.executeQuery("PRAGMA integrity_check")) {
                assertThat(check.next()).isTrue();
                assertThat(check.getString(1)).isEqualTo("ok");
            }
        } finally {
            run("umount", "-l", mount.toString());
        }
    }

    private static void mountSmallFilesystem(Path mount) throws Exception {
        String problem = run("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", mount.toString());
        Assumptions.assumeTrue(problem.isEmpty(), "this machine cannot mount a small filesystem for the drill: "
                + problem);
    }

    /** Writes zeros until the filesystem has no byte left. */
    private static void fill(Path filler) {
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            // No space left on device: as intended.
        }
    }

    /** Runs a command; empty when it succeeded, else what it said. */
    private static String run(String... command) throws Exception {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return e.toString();
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return String.join(" ", command) + " did not finish";
        }
        return process.exitValue() == 0 ? "" : output.strip() + " (exit " + process.exitValue() + ")";
    }
}
