package dev.klave.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.config.DatabaseUrl;
import dev.klave.config.EncryptionKeySource;
import dev.klave.config.InvalidSettingsException;
import dev.klave.config.Settings;
import dev.klave.config.SettingsLoader;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kubernetes manifests in {@code deploy/} as {@code kubectl apply -k} would send them: the
 * base's two hardened replicas, and the PostgreSQL overlay they need. Rendered by the real kubectl;
 * the settings they give Klave are read by Klave's own {@link SettingsLoader}.
 */
class KustomizeManifestsTest {
    private static final Path DEPLOY = Path.of("deploy").toAbsolutePath();
    private static final Manifests BASE = Kustomize.build(DEPLOY.resolve("base"));
    private static final Manifests POSTGRES = Kustomize.build(DEPLOY.resolve("overlays/postgres"));

    private static Stream<Manifests> both() {
        return Stream.of(BASE, POSTGRES);
    }

    @Test
    void twoReplicasThatARollingUpdateNeverTakesBelowTwo() {
        both().forEach(manifests -> {
            JsonNode deployment = manifests.one("Deployment");
            assertThat(deployment.at("/spec/replicas").asInt()).isEqualTo(2);
            assertThat(deployment.at("/spec/strategy/rollingUpdate/maxUnavailable").asInt()).isZero();
            assertThat(manifests.container().path("image").asText())
                    .as("a placeholder that an overlay's images: replaces").isEqualTo("klave:latest");
            assertThat(manifests.container().path("args").toString()).isEqualTo("[\"serve\"]");
        });
    }

    @Test
    void probesAskHealthzAndReadyzOnTheContainersPortWhichIsTheOneKlaveListensOn() throws Exception {
        JsonNode container = POSTGRES.container();
        assertThat(container.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/healthz");
        assertThat(container.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/readyz");
        assertThat(container.at("/startupProbe/httpGet/path").asText())
                .as("liveness waits for the migrations, which run before Klave listens").isEqualTo("/healthz");
        assertThat(container.at("/startupProbe/periodSeconds").asInt()
                * container.at("/startupProbe/failureThreshold").asInt())
                .as("seconds a first start may take").isGreaterThanOrEqualTo(600);
        JsonNode port = container.path("ports").get(0);
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            assertThat(container.at("/" + probe + "/httpGet/port").asText()).isEqualTo(port.path("name").asText());
            assertThat(container.at("/" + probe + "/httpGet/scheme").asText("HTTP")).isEqualTo("HTTP");
        }
        Settings settings = SettingsLoader.load(withRealSecrets(POSTGRES.environment()));
        assertThat(port.path("containerPort").asInt()).isEqualTo(settings.listen().port()).isEqualTo(8080);
        assertThat(settings.listen().host()).as("reachable from the kubelet and the Service").isEqualTo("0.0.0.0");
    }

    @Test
    void theProbesPathsAreAnsweredOkByAKlaveThatIsReady() {
        List<String> paths = new ArrayList<>();
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            paths.add(POSTGRES.container().at("/" + probe + "/httpGet/path").asText());
        }
        try (TestingKlave klave = TestingKlave.start(new TestingClock(Instant.now()), settings -> settings)) {
            for (String path : paths) {
                HttpResponse<String> answer = klave.http().get(path);
                assertThat(answer.statusCode()).as(path).isEqualTo(200);
                assertThat(answer.body()).as(path).isEqualTo("ok");
            }
        }
    }

    @Test
    void theDisruptionBudgetTheServiceAndTheNetworkPolicySelectTheDeploymentsPods() {
        both().forEach(manifests -> {
            JsonNode podLabels = manifests.one("Deployment").at("/spec/template/metadata/labels");
            JsonNode budget = manifests.one("PodDisruptionBudget");
            assertThat(budget.at("/spec/minAvailable").asInt()).isEqualTo(1)
                    .isLessThan(manifests.one("Deployment").at("/spec/replicas").asInt());
            assertSelects(budget.at("/spec/selector/matchLabels"), podLabels);
            assertSelects(manifests.one("Deployment").at("/spec/selector/matchLabels"), podLabels);
            assertSelects(manifests.one("Service").at("/spec/selector"), podLabels);
            assertThat(manifests.all("NetworkPolicy")).isNotEmpty().allSatisfy(policy ->
                    assertSelects(policy.at("/spec/podSelector/matchLabels"), podLabels));
        });
    }

    private static void assertSelects(JsonNode selector, JsonNode labels) {
        assertThat(selector.isObject() && !selector.isEmpty()).as("a selector that selects something: " + selector)
                .isTrue();
        selector.properties().forEach(entry ->
                assertThat(labels.path(entry.getKey()).asText()).as(entry.getKey()).isEqualTo(entry.getValue().asText()));
    }

    @Test
    void theEncryptionKeyComesFromASecretWhosePlaceholderKlaveRefusesToStartWith() {
        both().forEach(manifests -> {
            JsonNode variable = variable(manifests, "SERVICE_ENCRYPTION_KEY");
            assertThat(variable.has("value")).as("never written in the Deployment").isFalse();
            String secret = variable.at("/valueFrom/secretKeyRef/name").asText();
            assertThat(secret).isEqualTo("klave-encryption-key");
            assertThat(manifests.named("Secret", secret)).as("rendered with the base").isPresent();
        });
        assertThatThrownBy(() -> SettingsLoader.load(BASE.environment()))
                .isInstanceOfSatisfying(InvalidSettingsException.class, refused -> assertThat(refused.problems())
                        .anySatisfy(problem -> assertThat(problem).startsWith("SERVICE_ENCRYPTION_KEY: ")));
    }

    @Test
    void theOverlayTakesTheDatabaseUrlFromASecretWhosePlaceholderKlaveRefusesToo() {
        assertThat(BASE.environment()).as("the base has no database: two replicas cannot share SQLite")
                .doesNotContainKey("SERVICE_DATABASE_URL");
        JsonNode variable = variable(POSTGRES, "SERVICE_DATABASE_URL");
        assertThat(variable.has("value")).isFalse();
        String secret = variable.at("/valueFrom/secretKeyRef/name").asText();
        assertThat(POSTGRES.named("Secret", secret)).isPresent();

        assertThatThrownBy(() -> SettingsLoader.load(POSTGRES.environment()))
                .isInstanceOfSatisfying(InvalidSettingsException.class, refused -> assertThat(refused.problems())
                        .anySatisfy(problem -> assertThat(problem).startsWith("SERVICE_ENCRYPTION_KEY: "))
                        .anySatisfy(problem -> assertThat(problem).startsWith("SERVICE_DATABASE_URL: ")));
    }

    @Test
    void anOverlayAsTheReadmeShowsReplacesBothSecretsAndTheImageAndKlaveAcceptsWhatItRenders(@TempDir Path work)
            throws Exception {
        Path deploy = copy(DEPLOY, work.resolve("deploy"));
        Path mine = Files.createDirectories(deploy.resolve("overlays/mine"));
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        // As `openssl rand -base64 32 > encryption.key` writes it: with a newline.
        Files.writeString(mine.resolve("encryption.key"), Base64.getEncoder().encodeToString(key) + "\n");
        Files.writeString(mine.resolve("database.env"),
                "SERVICE_DATABASE_URL=postgres://klave:s3cret@db.example.internal:5432/klave?sslmode=verify-full\n");
        Files.writeString(mine.resolve("kustomization.yaml"), """
                resources:
                  - ../postgres
                secretGenerator:
                  - name: klave-encryption-key
                    behavior: replace
                    files:
                      - SERVICE_ENCRYPTION_KEY=encryption.key
                  - name: klave-database
                    behavior: replace
                    envs:
                      - database.env
                configMapGenerator:
                  - name: klave-settings
                    behavior: merge
                    literals:
                      - SERVICE_BASE_URL=https://klave.corp.example
                images:
                  - name: klave
                    newName: registry.corp.example/klave
                    newTag: 0.1.0
                """);

        Manifests rendered = Kustomize.build(mine);

        Settings settings = SettingsLoader.load(rendered.environment());
        assertThat(settings.database()).isInstanceOfSatisfying(DatabaseUrl.Postgres.class, postgres -> {
            assertThat(postgres.host()).isEqualTo("db.example.internal");
            assertThat(postgres.password()).contains("s3cret");
        });
        assertThat(settings.encryptionKey()).isInstanceOfSatisfying(EncryptionKeySource.Given.class,
                given -> assertThat(given.key().bytes()).isEqualTo(key));
        assertThat(settings.baseUrl().toString()).startsWith("https://klave.corp.example");
        assertThat(rendered.container().path("image").asText()).isEqualTo("registry.corp.example/klave:0.1.0");
        assertThat(rendered.all("Secret")).as("replaced, not added beside the placeholders").hasSize(2);
        assertThat(rendered.objects().toString()).doesNotContain("replace me");
    }

    @Test
    void secretsKeptInASecretManagerAreDroppedFromTheBuildAsTheReadmeShowsAndStillReferenced(@TempDir Path work)
            throws Exception {
        Path deploy = copy(DEPLOY, work.resolve("deploy"));
        Path external = Files.createDirectories(deploy.resolve("overlays/external"));
        Files.writeString(external.resolve("kustomization.yaml"), """
                resources:
                  - ../postgres
                patches:
                  - patch: |-
                      $patch: delete
                      apiVersion: v1
                      kind: Secret
                      metadata:
                        name: klave-encryption-key
                  - patch: |-
                      $patch: delete
                      apiVersion: v1
                      kind: Secret
                      metadata:
                        name: klave-database
                """);

        Manifests rendered = Kustomize.build(external);

        assertThat(rendered.all("Secret")).as("apply -k no longer writes the placeholders over them").isEmpty();
        assertThat(variable(rendered, "SERVICE_ENCRYPTION_KEY").at("/valueFrom/secretKeyRef/name").asText())
                .isEqualTo("klave-encryption-key");
        assertThat(variable(rendered, "SERVICE_DATABASE_URL").at("/valueFrom/secretKeyRef/name").asText())
                .isEqualTo("klave-database");
    }

    @Test
    void podsRunAsAFixedNonRootUserOnAReadOnlyRootWithNothingToEscalate() {
        both().forEach(manifests -> {
            JsonNode pod = manifests.podSpec();
            assertThat(pod.at("/securityContext/runAsNonRoot").asBoolean()).isTrue();
            assertThat(pod.at("/securityContext/runAsUser").asInt()).isEqualTo(10001);
            assertThat(pod.at("/securityContext/runAsGroup").asInt()).isEqualTo(10001);
            assertThat(pod.at("/securityContext/seccompProfile/type").asText()).isEqualTo("RuntimeDefault");
            assertThat(pod.path("automountServiceAccountToken").asBoolean(true))
                    .as("Klave reaches clusters with their own tokens, never its pod's").isFalse();
            JsonNode security = manifests.container().path("securityContext");
            assertThat(security.path("runAsNonRoot").asBoolean()).isTrue();
            assertThat(security.path("readOnlyRootFilesystem").asBoolean()).isTrue();
            assertThat(security.path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
            assertThat(security.path("privileged").asBoolean(true)).isFalse();
            assertThat(security.at("/capabilities/drop").toString()).isEqualTo("[\"ALL\"]");
            assertThat(security.at("/capabilities/add").isMissingNode()).isTrue();
            assertThat(manifests.container().at("/volumeMounts/0/mountPath").asText()).isEqualTo("/tmp");
            String volume = manifests.container().at("/volumeMounts/0/name").asText();
            assertThat(pod.path("volumes")).singleElement().satisfies(declared -> {
                assertThat(declared.path("name").asText()).isEqualTo(volume);
                assertThat(declared.has("emptyDir")).isTrue();
                assertThat(declared.at("/emptyDir/sizeLimit").asText()).isNotEmpty();
            });
        });
    }

    @Test
    void requestsAndLimitsAreSetAndTheGracePeriodCoversKlavesShutdown() throws Exception {
        for (Manifests manifests : List.of(BASE, POSTGRES)) {
            JsonNode resources = manifests.container().path("resources");
            for (String field : List.of("/requests/cpu", "/requests/memory", "/limits/cpu", "/limits/memory")) {
                assertThat(resources.at(field).asText()).as(field).isNotEmpty();
            }
            assertThat(mebibytes(resources.at("/requests/memory").asText()))
                    .isLessThanOrEqualTo(mebibytes(resources.at("/limits/memory").asText()));
        }
        Settings settings = SettingsLoader.load(withRealSecrets(POSTGRES.environment()));
        Duration needed = settings.shutdownDelay().plus(settings.shutdownTimeout());
        assertThat(Duration.ofSeconds(POSTGRES.podSpec().path("terminationGracePeriodSeconds").asLong()))
                .as("SIGKILL only after readiness drained and requests in flight finished").isGreaterThan(needed);
    }

    @Test
    void theNetworkPolicyAdmitsOnlyKlavesPortAndLetsOutDnsTheClustersAndWithTheOverlayPostgres() {
        both().forEach(manifests -> {
            JsonNode policy = manifests.named("NetworkPolicy", "klave").orElseThrow();
            assertThat(policy.at("/spec/policyTypes").toString()).isEqualTo("[\"Ingress\",\"Egress\"]");
            int port = manifests.container().at("/ports/0/containerPort").asInt();
            assertThat(policy.at("/spec/ingress")).singleElement().satisfies(rule ->
                    assertThat(rule.path("ports")).singleElement().satisfies(allowed -> {
                        assertThat(allowed.path("protocol").asText()).isEqualTo("TCP");
                        assertThat(allowed.path("port").asInt()).isEqualTo(port);
                    }));
            List<String> egress = egressPorts(manifests);
            assertThat(egress).contains("UDP/53", "TCP/53", "TCP/443", "TCP/6443");
            assertThat(policy.at("/spec/egress").toString()).contains("kube-dns").contains("169.254.169.254/32");
        });
        assertThat(egressPorts(BASE)).doesNotContain("TCP/5432");
        assertThat(egressPorts(POSTGRES)).contains("TCP/5432");
    }

    private static List<String> egressPorts(Manifests manifests) {
        List<String> ports = new ArrayList<>();
        for (JsonNode policy : manifests.all("NetworkPolicy")) {
            for (JsonNode rule : policy.at("/spec/egress")) {
                for (JsonNode port : rule.path("ports")) {
                    ports.add(port.path("protocol").asText() + "/" + port.path("port").asText());
                }
            }
        }
        return ports;
    }

    @Test
    void theDockerfileAndJibBuildTheImageTheManifestsExpect() throws IOException {
        String dockerfile = Files.readString(Path.of("Dockerfile"));
        String pom = Files.readString(Path.of("pom.xml"));
        String jib = pom.substring(pom.indexOf("<artifactId>jib-maven-plugin</artifactId>"));
        jib = jib.substring(0, jib.indexOf("</plugin>"));
        JsonNode pod = POSTGRES.podSpec();
        String user = pod.at("/securityContext/runAsUser").asInt() + ":" + pod.at("/securityContext/runAsGroup").asInt();
        int port = POSTGRES.container().at("/ports/0/containerPort").asInt();

        String base = dockerfile.lines().filter(line -> line.startsWith("FROM ")).findFirst().orElseThrow()
                .substring("FROM ".length()).strip();
        assertThat(base).as("pinned to one release").matches("eclipse-temurin:25\\.\\d+\\.\\d+_\\d+-jre-\\w+");
        assertThat(jib).contains("<version>3.5.2</version>").contains("<image>" + base + "</image>")
                .contains("<user>" + user + "</user>").contains("<port>" + port + "</port>")
                .contains("<mainClass>dev.klave.cli.Main</mainClass>").contains("<arg>serve</arg>")
                .contains("<jvmFlag>--sun-misc-unsafe-memory-access=allow</jvmFlag>")
                .contains("<jvmFlag>-Dio.netty.noUnsafe=false</jvmFlag>")
                .as("bound to no phase: ./mvnw verify never pulls an image").doesNotContain("<executions>");
        assertThat(dockerfile).contains("\nUSER " + user + "\n").contains("\nEXPOSE " + port + "\n")
                .contains("CMD [\"serve\"]").contains("-XX:+ExitOnOutOfMemoryError")
                .as("Netty's buffers through Unsafe, as ./klave and the jib image (issue 44)")
                .contains("\"--sun-misc-unsafe-memory-access=allow\", \"-Dio.netty.noUnsafe=false\"")
                .as("the libraries in a layer before the jar's")
                .containsSubsequence("COPY target/lib/ /app/lib/", "COPY target/klave.jar /app/klave.jar");
        assertThat(pom).as("the jar's manifest finds the libraries where the Dockerfile puts them")
                .contains("<classpathPrefix>lib/</classpathPrefix>");
    }

    private static JsonNode variable(Manifests manifests, String name) {
        for (JsonNode variable : manifests.container().path("env")) {
            if (variable.path("name").asText().equals(name)) {
                return variable;
            }
        }
        throw new AssertionError(name + " is not set in the container's env");
    }

    /** The rendered environment with what an operator puts in place of the placeholders. */
    private static Map<String, String> withRealSecrets(Map<String, String> rendered) {
        Map<String, String> environment = new HashMap<>(rendered);
        environment.put("SERVICE_ENCRYPTION_KEY", Base64.getEncoder().encodeToString(new byte[32]));
        environment.put("SERVICE_DATABASE_URL", "postgres://klave@db:5432/klave");
        return environment;
    }

    private static long mebibytes(String quantity) {
        if (quantity.endsWith("Gi")) {
            return Long.parseLong(quantity.substring(0, quantity.length() - 2)) * 1024;
        }
        if (quantity.endsWith("Mi")) {
            return Long.parseLong(quantity.substring(0, quantity.length() - 2));
        }
        throw new AssertionError("a quantity in Mi or Gi: " + quantity);
    }

    private static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        return to;
    }
}
