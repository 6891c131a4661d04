package dev.klave.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench/run --smoke} works end to end: the stand-in cluster, nginx, the Vert.x floor, both Klaves, every
 * phase, and a result file with every figure named. No timing is asserted: the figures of a
 * 30-second run on a busy CI machine mean nothing; the harness working is what this proves.
 */
class BenchSmokeIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void smokeRunWritesEveryFigure(@TempDir Path out) throws Exception {
        for (String tool : List.of("nginx", "wrk")) {
            assertThat(onPath(tool))
                    .as("bench/run needs %s (.ci/run installs it: apt-get install -y nginx wrk)", tool).isTrue();
        }
        Path log = out.resolve("bench.log");
        Process run = new ProcessBuilder("bench/run", "--smoke", "--no-install", "--no-build", "--out", out.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean finished = run.waitFor(5, TimeUnit.MINUTES);
        if (!finished) {
            // bench/run's clean-up (its EXIT trap) stops what it started.
            run.toHandle().descendants().forEach(ProcessHandle::destroy);
            run.destroy();
            run.waitFor(30, TimeUnit.SECONDS);
        }
        String output = Files.readString(log);
        assertThat(finished).as("bench/run --smoke did not finish in 5 minutes:\n%s", output).isTrue();
        assertThat(run.exitValue()).as("bench/run --smoke failed:\n%s", output).isZero();

        JsonNode result = JSON.readTree(out.resolve("results.json").toFile());
        assertThat(result.get("meta").get("mode").asText()).isEqualTo("smoke");
        JsonNode summary = result.get("summary");
        for (String target : List.of("direct", "nginx", "klave-sqlite", "klave-postgres")) {
            for (String phase : List.of("max_c16", "max_c64", "rate_500", "rate_2000", "upgrade")) {
                assertThat(summary.has(target + "/" + phase)).as("%s/%s in %s", target, phase, summary).isTrue();
            }
        }
        // The floor (Vert.x forwarding and nothing else) is measured for throughput and latency only.
        for (String phase : List.of("max_c16", "max_c64", "rate_500", "rate_2000")) {
            assertThat(summary.has("vertx-floor/" + phase)).as("vertx-floor/%s in %s", phase, summary).isTrue();
        }
        // The commit floor under klave-postgres's latency.
        assertThat(summary.path("klave-postgres/commit_500").path("p99_ms").asDouble()).isPositive();
        // The machine's floor under a thread hand-off.
        assertThat(summary.path("machine/wake_500").path("p99_ms").asDouble()).isPositive();
        for (String klave : List.of("klave-sqlite", "klave-postgres")) {
            for (String phase : List.of("audit", "watches", "revoke")) {
                assertThat(summary.has(klave + "/" + phase)).as("%s/%s", klave, phase).isTrue();
            }
            assertThat(summary.get(klave + "/max_c64").get("rps").asDouble()).isPositive();
        }
        assertThat(result.get("targets")).isNotEmpty();
        assertThat(Files.readString(out.resolve("RESULTS.md"))).contains("| figure |").contains("One INSERT and COMMIT")
                .contains("nginx itself, the practical limit, adds").contains("One thread waking another");
    }

    private static boolean onPath(String tool) {
        for (String directory : (System.getenv("PATH") + File.pathSeparator + "/usr/sbin").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(directory, tool))) {
                return true;
            }
        }
        return false;
    }
}
