package dev.klave.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.config.DatabaseUrl;
import dev.klave.testing.KlaveProcess;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingPeople;
import dev.klave.testing.TestingPostgres;
import dev.klave.testing.TestingSettings;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The packaged jar, started the way the README tells a new user to. */
class KlaveProcessIT {
    private static final Duration START = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    @Test
    void serveOnAFreshDirectoryUsesSqliteUnderDataWithAGeneratedKeyAndStopsOnSigterm() throws Exception {
        try (KlaveProcess klave = KlaveProcess.start(directory, Map.of(
                "SERVICE_LISTEN", "127.0.0.1:0", "SERVICE_SHUTDOWN_DELAY", "1s"), "serve")) {
            int port = klave.awaitListening(START);
            TestingHttp http = new TestingHttp(port);

            assertThat(http.get("/healthz").body()).isEqualTo("ok");
            assertThat(http.get("/readyz").body()).isEqualTo("ok");
            String page = http.get("/login").body();
            assertThat(page).contains("<title>Klave</title>");
            // The jar carries the built web interface: the page's content-hashed script and style.
            java.util.regex.Matcher assets = java.util.regex.Pattern.compile("(?:src|href)=\"(/assets/[^\"]+)\"")
                    .matcher(page);
            int found = 0;
            while (assets.find()) {
                assertThat(http.get(assets.group(1)).statusCode()).as(assets.group(1)).isEqualTo(200);
                found++;
            }
            assertThat(found).isEqualTo(2);
            assertThat(http.get("/api/nothing").body()).isEqualTo("{\"error\":\"no encontrado\"}");
            assertThat(directory.resolve("data/klave.db")).isRegularFile();
            Path key = directory.resolve("data/encryption.key");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
            assertThat(String.join("\n", klave.stderr())).contains("SERVICE_ENCRYPTION_KEY is not set: generated")
                    .doesNotContain(Files.readString(key).strip());

            klave.terminate();
            int status = klave.awaitExit(Duration.ofSeconds(30));

            assertThat(status).as("exit status after SIGTERM, log:%n%s", klave.stderr()).isEqualTo(143);
            assertThat(String.join("\n", klave.stderr())).contains("/readyz now answers 503").contains("Klave stopped");
            assertThat(canConnect(port)).isFalse();
        }
    }

    @Test
    void cliWritesTheDatabaseOfARunningService() throws Exception {
        try (KlaveProcess klave = KlaveProcess.start(directory, Map.of(
                "SERVICE_LISTEN", "127.0.0.1:0", "SERVICE_SHUTDOWN_DELAY", "0s"), "serve")) {
            TestingHttp http = new TestingHttp(klave.awaitListening(START));

            KlaveProcess created = KlaveProcess.run(directory, Map.of(), "user", "create", "carol", "--admin");
            String token = TestingPeople.tokenOf(created.stdout().getFirst());
            HttpResponse<String> completed = http.send("POST", "/api/auth/link/complete",
                    "{\"token\":\"" + token + "\",\"password\":\"" + TestingPeople.PASSWORD + "\"}");
            String cookie = TestingPeople.cookieOf(completed);

            assertThat(http.get("/api/me", "Cookie", cookie).body()).contains("\"login\":\"carol\"")
                    .contains("\"is_admin\":true").contains("\"break_glass\":false");
            assertThat(KlaveProcess.run(directory, Map.of(), "user", "set-break-glass", "carol").exitValue()).isZero();
            assertThat(http.get("/api/me", "Cookie", cookie).body()).contains("\"break_glass\":true");
            assertThat(http.get("/api/control-events", "Cookie", cookie).body()).contains("\"type\":\"user.break_glass\"")
                    .contains("\"via\":\"cli\"");
            klave.terminate();
            klave.awaitExit(Duration.ofSeconds(30));
        }
    }

    @Test
    void auditExportWritesEveryRowToAFileAndResumesAfterTheLastOneReceived() throws Exception {
        try (KlaveProcess klave = KlaveProcess.start(directory, Map.of(
                "SERVICE_LISTEN", "127.0.0.1:0", "SERVICE_SHUTDOWN_DELAY", "0s"), "serve")) {
            TestingHttp http = new TestingHttp(klave.awaitListening(START));
            for (int i = 0; i < 3; i++) {
                // Refused requests are rows too (hidden from listings unless discovery is included).
                assertThat(http.get("/clusters/prod-" + i + "/api/v1/pods", "Authorization", "Bearer klt_nope")
                        .statusCode()).isEqualTo(401);
            }
            Path file = directory.resolve("audit.jsonl");

            KlaveProcess all = KlaveProcess.run(directory, Map.of(), "audit", "export", "--format", "jsonl",
                    "--include-discovery", "--output", file.toString());
            List<String> lines = Files.readAllLines(file);
            String newest = new com.fasterxml.jackson.databind.ObjectMapper().readTree(lines.getFirst()).get("id")
                    .asText();
            KlaveProcess rest = KlaveProcess.run(directory, Map.of(), "audit", "export", "--format", "jsonl",
                    "--include-discovery", "--after", newest);
            KlaveProcess wrongStatus = KlaveProcess.run(directory, Map.of(), "audit", "export", "--status", "42");

            assertThat(all.exitValue()).as(String.join("\n", all.stderr())).isZero();
            assertThat(lines).hasSize(3).allSatisfy(line -> assertThat(line).contains("\"status\":401"));
            assertThat(all.stderr()).anySatisfy(line -> assertThat(line).contains("exported 3 rows to "));
            assertThat(rest.stdout()).containsExactlyElementsOf(lines.subList(1, 3));
            assertThat(wrongStatus.exitValue()).isEqualTo(1);
            assertThat(wrongStatus.stderr()).anySatisfy(line -> assertThat(line).contains("status no válido"));
            klave.terminate();
            klave.awaitExit(Duration.ofSeconds(30));
        }
    }

    @Test
    void secondStartKeepsTheSameKey() throws Exception {
        for (int start = 0; start < 2; start++) {
            try (KlaveProcess klave = KlaveProcess.start(directory, Map.of(
                    "SERVICE_LISTEN", "127.0.0.1:0", "SERVICE_SHUTDOWN_DELAY", "0s"), "serve")) {
                klave.awaitListening(START);
                String key = Files.readString(directory.resolve("data/encryption.key"));
                klave.terminate();
                klave.awaitExit(Duration.ofSeconds(30));
                if (start == 1) {
                    assertThat(String.join("\n", klave.stderr())).doesNotContain("generated a new key");
                }
                assertThat(key).hasSize(45);
            }
        }
    }

    @Test
    void theLauncherMakesAJvmThatRunsOutOfMemoryExitInsteadOfLimpingOn() {
        // PrintCommandLineFlags shows the flags the launcher gave the JVM; the JVM then runs --help.
        KlaveProcess help = KlaveProcess.launch(directory, Map.of("KLAVE_JAVA_OPTS", "-XX:+PrintCommandLineFlags"),
                "--help");

        assertThat(help.exitValue()).as(String.join("\n", help.stderr())).isZero();
        assertThat(help.stdout().getFirst()).contains("-XX:+ExitOnOutOfMemoryError");
        assertThat(String.join("\n", help.stdout())).contains("serve");
    }

    @Test
    void userCreatePrintsOnlyTheInvitationLinkOnStandardOutput() {
        KlaveProcess created = KlaveProcess.run(directory, Map.of(), "user", "create", "alice", "--admin",
                "--display-name", "Alice Admin", "--email", "alice@example.com");

        assertThat(created.exitValue()).isZero();
        assertThat(created.stdout()).singleElement().asString()
                .matches("http://localhost:8080/cuenta#kli_[A-Za-z0-9_-]{43}");
        assertThat(String.join("\n", created.stderr())).contains("created alice (administrator)");
    }

    @Test
    void loginsAreNeverReusedAndUnknownLoginsAreOneClearLine() {
        KlaveProcess.run(directory, Map.of(), "user", "create", "bob");

        KlaveProcess again = KlaveProcess.run(directory, Map.of(), "user", "create", "bob", "--admin");
        assertThat(again.exitValue()).isEqualTo(1);
        assertThat(again.stdout()).isEmpty();
        assertThat(again.stderr()).containsExactly("klave: ese login ya existe (los logins no se reutilizan)");

        KlaveProcess unknown = KlaveProcess.run(directory, Map.of(), "user", "set-break-glass", "nobody");
        assertThat(unknown.exitValue()).isEqualTo(1);
        assertThat(unknown.stderr()).containsExactly("klave: usuario no encontrado");

        KlaveProcess marked = KlaveProcess.run(directory, Map.of(), "user", "set-break-glass", "bob");
        assertThat(marked.exitValue()).isZero();
        assertThat(marked.stdout()).containsExactly("bob is now break-glass");
        KlaveProcess unmarked = KlaveProcess.run(directory, Map.of(), "user", "set-break-glass", "bob", "--off");
        assertThat(unmarked.exitValue()).isZero();
        assertThat(unmarked.stdout()).containsExactly("bob is no longer break-glass");
    }

    @Test
    void invalidLoginIsRefusedWithTheReason() {
        KlaveProcess refused = KlaveProcess.run(directory, Map.of(), "user", "create", "Alice_Admin");

        assertThat(refused.exitValue()).isEqualTo(1);
        assertThat(refused.stderr()).singleElement().asString().startsWith("klave: login no válido");
    }

    @Test
    void unreachableDatabaseIsOneClearLine() throws Exception {
        int closedPort = unusedPort();
        KlaveProcess failed = KlaveProcess.run(directory, Map.of(
                "SERVICE_DATABASE_URL", "postgres://klave@127.0.0.1:" + closedPort + "/klave",
                "SERVICE_ENCRYPTION_KEY", TestingSettings.KEY), "user", "create", "carol");

        assertThat(failed.exitValue()).isEqualTo(1);
        assertThat(failed.stderr()).singleElement().asString()
                .startsWith("klave: Klave no puede consultar su base de datos: cannot connect to postgres://klave@127.0.0.1:");
    }

    @Test
    void invalidSettingsAreAllListedAndNothingListens() throws Exception {
        int port = unusedPort();
        KlaveProcess refused = KlaveProcess.run(directory, Map.of(
                "SERVICE_LISTEN", "127.0.0.1:" + port,
                "SERVICE_BASE_URL", "https://klave.example.com/?tenant=1",
                "SERVICE_DATABASE_URL", "postgres://klave:hunter2@db.internal/klave",
                "SERVICE_TRUSTED_PROXIES", "10.0.0.0/40"), "serve");

        assertThat(refused.exitValue()).isEqualTo(2);
        assertThat(refused.stderr()).containsExactly(
                "klave: the settings are not valid:",
                "  - SERVICE_BASE_URL: must not have a query or fragment (got 'https://klave.example.com/?tenant=1')",
                "  - SERVICE_ENCRYPTION_KEY: required with PostgreSQL (base64 of 32 random bytes, for example the "
                        + "output of `openssl rand -base64 32`)",
                "  - SERVICE_TRUSTED_PROXIES: '10.0.0.0/40' has a prefix length outside 0..32 (got '10.0.0.0/40')");
        assertThat(canConnect(port)).isFalse();
        assertThat(directory.resolve("data")).doesNotExist();
    }

    @Test
    void postgresRunsTheSameMigrationsAndCommands() throws Exception {
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        Map<String, String> environment = Map.of(
                "SERVICE_DATABASE_URL", TestingPostgres.urlOf(database),
                "SERVICE_ENCRYPTION_KEY", TestingSettings.KEY,
                "SERVICE_LISTEN", "127.0.0.1:0",
                "SERVICE_SHUTDOWN_DELAY", "0s",
                "SERVICE_BASE_URL", "https://klave.example.com");
        try (KlaveProcess klave = KlaveProcess.start(directory, environment, "serve")) {
            int port = klave.awaitListening(START);
            assertThat(new TestingHttp(port).get("/readyz").body()).isEqualTo("ok");

            KlaveProcess created = KlaveProcess.run(directory, environment, "user", "create", "dana", "--break-glass");

            assertThat(created.exitValue()).isZero();
            assertThat(created.stdout()).singleElement().asString().startsWith("https://klave.example.com/cuenta#kli_");
            assertThat(directory.resolve("data")).doesNotExist();
            klave.terminate();
            klave.awaitExit(Duration.ofSeconds(30));
        } finally {
            TestingPostgres.drop(database);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "serve --help", "user --help", "user create --help",
        "user set-break-glass --help", "audit --help", "audit export --help"})
    void everyCommandExplainsItself(String arguments) {
        KlaveProcess help = KlaveProcess.run(directory, Map.of(), arguments.split(" "));

        assertThat(help.exitValue()).isZero();
        assertThat(help.stdout().getFirst()).startsWith("Usage: klave");
    }

    /** A port nothing listens on (it was free a moment ago). */
    private static int unusedPort() throws java.io.IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static boolean canConnect(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
