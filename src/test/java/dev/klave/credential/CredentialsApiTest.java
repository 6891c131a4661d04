package dev.klave.credential;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** {@code /api/credentials} (spec 1 §4 "Credentials"): issue, list, revoke, and who may do what. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CredentialsApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TestingKlave klave;
    private TestingHttp http;
    private String admin;
    private String ana;
    private String anaId;
    private String eva;
    private String evaId;
    private String botId;

    @BeforeAll
    void start() throws Exception {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
        ana = TestingPeople.signUp(klave, "ana", false);
        eva = TestingPeople.signUp(klave, "eva", false);
        botId = json(http.send("POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"deployer\"}", "Cookie", admin))
                .get("id").asText();
        for (JsonNode subject : json(http.get("/api/subjects", "Cookie", admin))) {
            switch (subject.get("login").asText()) {
                case "ana" -> anaId = subject.get("id").asText();
                case "eva" -> evaId = subject.get("id").asText();
                default -> { }
            }
        }
        for (String cluster : new String[] {"prod-1", "prod-2", "lab"}) {
            http.send("POST", "/api/clusters", "{\"id\":\"" + cluster + "\",\"name\":\"" + cluster + "\"}", "Cookie", admin);
        }
        grant(anaId, "prod-1");
        grant(anaId, "prod-2");
        grant(botId, "prod-1");
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private void grant(String subject, String cluster) {
        HttpResponse<String> created = http.send("POST", "/api/grants", "{\"subject_id\":\"" + subject
                + "\",\"cluster_id\":\"" + cluster + "\",\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    }

    private static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(response.body(), e);
        }
    }

    private HttpResponse<String> issue(String cookie, String body) {
        return http.send("POST", "/api/credentials", body, "Cookie", cookie);
    }

    private static void assertError(HttpResponse<String> response, int status, String text) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.body()).isEqualTo("{\"error\":\"" + text + "\"}");
    }

    @Test
    void issuedCredentialComesOnceWithAKubeconfigKubectlAccepts() throws Exception {
        HttpResponse<String> issued = issue(ana, "{\"ttl\":\"12h\",\"name\":\"portátil\",\"note\":\"guardia\"}");

        assertThat(issued.statusCode()).as(issued.body()).isEqualTo(201);
        JsonNode body = json(issued);
        String token = body.get("token").asText();
        assertThat(token).matches("klt_[A-Za-z0-9_-]{43}");
        assertThat(body.get("expires_at").asText()).isEqualTo("2026-11-25T22:00:00Z");
        assertThat(body.get("clusters").toString()).isEqualTo("[\"prod-1\",\"prod-2\"]");
        String kubeconfig = body.get("kubeconfig").asText();
        assertThat(kubeconfig).contains("server: http://localhost:8080/clusters/prod-1")
                .contains("server: http://localhost:8080/clusters/prod-2").contains("token: " + token);

        Path file = Files.createTempFile("kubeconfig", ".yaml");
        Files.writeString(file, kubeconfig);
        Process kubectl = new ProcessBuilder("/usr/bin/kubectl", "--kubeconfig=" + file, "config", "get-contexts",
                "-o", "name").redirectErrorStream(true).start();
        assertThat(kubectl.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(kubectl.getInputStream().readAllBytes())).isEqualTo("prod-1\nprod-2\n");
        assertThat(kubectl.exitValue()).isZero();

        String listed = http.get("/api/credentials", "Cookie", ana).body();
        assertThat(listed).contains(body.get("id").asText()).doesNotContain(token).doesNotContain("kubeconfig");
        String stored = klave.klave().database().withHandle(handle ->
                handle.createQuery("SELECT * FROM credentials").mapToMap().list().toString());
        assertThat(stored).doesNotContain(token).doesNotContain(token.substring(4));
    }

    @Test
    void ttlIsRequiredWellFormedAndBoundedForPeople() {
        assertError(issue(ana, "{\"name\":\"x\"}"), 400, "ttl no válido: usa por ejemplo 7d o 12h");
        assertError(issue(ana, "{\"ttl\":\"1 week\"}"), 400, "ttl no válido: usa por ejemplo 7d o 12h");
        assertError(issue(ana, "{\"ttl\":\"0d\"}"), 400, "ttl no válido: usa por ejemplo 7d o 12h");
        assertError(issue(ana, "{\"ttl\":\"31d\"}"), 400, "ttl demasiado largo: como mucho 30d");
        assertThat(issue(ana, "{\"ttl\":\"30d\"}").statusCode()).isEqualTo(201);
        assertThat(issue(admin, "{\"ttl\":\"90d\",\"subject_id\":\"" + botId + "\"}").statusCode()).isEqualTo(201);
    }

    @Test
    void onlyAdministratorsIssueForOthersAndOnlyWhereGrantsExist() {
        assertError(issue(ana, "{\"ttl\":\"1h\",\"subject_id\":\"" + evaId + "\"}"), 403,
                "solo un administrador puede operar sobre credenciales de otros");
        assertError(issue(eva, "{\"ttl\":\"1h\"}"), 409, "sin permisos activos: no hay ningún cluster al que dar acceso");
        assertError(issue(ana, "{\"ttl\":\"1h\",\"cluster_id\":\"lab\"}"), 409,
                "sin permisos activos: no hay ningún cluster al que dar acceso");
        assertError(issue(ana, "{\"ttl\":\"1h\",\"cluster_id\":\"nope\"}"), 404, "cluster no encontrado");
        HttpResponse<String> restricted = issue(ana, "{\"ttl\":\"1h\",\"cluster_id\":\"prod-2\"}");
        assertThat(json(restricted).get("clusters").toString()).isEqualTo("[\"prod-2\"]");
        assertThat(json(restricted).get("cluster_id").asText()).isEqualTo("prod-2");
    }

    @Test
    void ownerOrAdministratorRevokesAndOthersCannot() {
        String id = json(issue(ana, "{\"ttl\":\"1h\"}")).get("id").asText();

        assertError(http.send("POST", "/api/credentials/" + id + "/revoke", "{}", "Cookie", eva), 403,
                "solo un administrador puede operar sobre credenciales de otros");
        assertError(http.send("POST", "/api/credentials/" + id + "/revoke", "{\"motivo\":\"perdido\"}", "Cookie",
                ana), 400, "cuerpo JSON no válido: campo desconocido «motivo»");
        HttpResponse<String> revoked = http.send("POST", "/api/credentials/" + id + "/revoke",
                "{\"reason\":\"portátil perdido\"}", "Cookie", ana);

        assertThat(json(revoked).get("status").asText()).isEqualTo("revoked");
        assertThat(json(revoked).get("revoke_reason").asText()).isEqualTo("portátil perdido");
        assertThat(http.send("POST", "/api/credentials/" + id + "/revoke", null, "Cookie", admin).statusCode())
                .isEqualTo(200);
        assertError(http.send("POST", "/api/credentials/nope/revoke", null, "Cookie", admin), 404, "no encontrado");
        assertThat(http.get("/api/credentials", "Cookie", eva).body()).doesNotContain(id);
        assertThat(http.get("/api/credentials", "Cookie", admin).body()).contains(id);
    }

    @Test
    void disablingTheOwnerRevokesEveryCredential() {
        TestingPeople.signUp(klave, "leo", false);
        String leoId = null;
        for (JsonNode subject : json(http.get("/api/subjects", "Cookie", admin))) {
            if (subject.get("login").asText().equals("leo")) {
                leoId = subject.get("id").asText();
            }
        }
        grant(leoId, "prod-1");
        String credential = json(issue(admin, "{\"ttl\":\"1h\",\"subject_id\":\"" + leoId + "\"}")).get("id").asText();

        http.send("POST", "/api/subjects/" + leoId + "/disable", null, "Cookie", admin);

        String listed = http.get("/api/credentials", "Cookie", admin).body();
        JsonNode mine = null;
        for (JsonNode item : json(http.get("/api/credentials", "Cookie", admin))) {
            if (item.get("id").asText().equals(credential)) {
                mine = item;
            }
        }
        assertThat(listed).isNotEmpty();
        assertThat(mine.get("status").asText()).isEqualTo("revoked");
        assertThat(mine.get("revoke_reason").asText()).isEqualTo("cuenta deshabilitada");
    }

    @Test
    void deletingAClusterRevokesTheCredentialsRestrictedToIt() {
        http.send("POST", "/api/clusters", "{\"id\":\"temp\",\"name\":\"temp\"}", "Cookie", admin);
        grant(anaId, "temp");
        String restricted = json(issue(ana, "{\"ttl\":\"1h\",\"cluster_id\":\"temp\"}")).get("id").asText();
        String everywhere = json(issue(ana, "{\"ttl\":\"1h\"}")).get("id").asText();

        assertThat(http.send("DELETE", "/api/clusters/temp", null, "Cookie", admin).statusCode()).isEqualTo(200);

        for (JsonNode item : json(http.get("/api/credentials", "Cookie", ana))) {
            if (item.get("id").asText().equals(restricted)) {
                assertThat(item.get("status").asText()).isEqualTo("revoked");
            }
            if (item.get("id").asText().equals(everywhere)) {
                assertThat(item.get("status").asText()).isEqualTo("active");
            }
        }
    }
}
