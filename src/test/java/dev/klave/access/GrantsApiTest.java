package dev.klave.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The grant and tier routes that need no cluster answer (spec 1 §4 "Grants"): the catalogue,
 * who sees which grants, revocation and the listing filters.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrantsApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TestingKlave klave;
    private TestingHttp http;
    private String admin;
    private String ana;
    private String anaId;
    private String evaId;

    @BeforeAll
    void start() throws Exception {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
        ana = TestingPeople.signUp(klave, "ana", false);
        TestingPeople.signUp(klave, "eva", false);
        for (JsonNode subject : JSON.readTree(http.get("/api/subjects", "Cookie", admin).body())) {
            if (subject.get("login").asText().equals("ana")) {
                anaId = subject.get("id").asText();
            }
            if (subject.get("login").asText().equals("eva")) {
                evaId = subject.get("id").asText();
            }
        }
        http.send("POST", "/api/clusters", "{\"id\":\"prod-1\",\"name\":\"Producción\"}", "Cookie", admin);
        http.send("POST", "/api/clusters", "{\"id\":\"prod-2\",\"name\":\"Otro\"}", "Cookie", admin);
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private String grant(String subjectId, String cluster, String tier) throws Exception {
        HttpResponse<String> created = http.send("POST", "/api/grants", "{\"subject_id\":\"" + subjectId
                + "\",\"cluster_id\":\"" + cluster + "\",\"tier\":\"" + tier + "\",\"scope\":\"*\",\"note\":\"guardia\"}",
                "Cookie", admin);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode grant = JSON.readTree(created.body());
        assertThat(grant.get("group").asText()).isEqualTo("service:" + tier + ":*");
        assertThat(grant.get("active").asBoolean()).isTrue();
        return grant.get("id").asText();
    }

    @Test
    void tierCatalogueNamesTiersProtectedNamespacesAndPodSecurity() throws Exception {
        JsonNode catalogue = JSON.readTree(http.get("/api/tiers", "Cookie", ana).body());

        assertThat(catalogue.get("tiers").findValuesAsText("name")).containsExactly("view", "edit", "admin",
                "cluster-admin");
        assertThat(catalogue.get("protected_namespaces").toString())
                .isEqualTo("[\"klave-system\",\"kube-node-lease\",\"kube-public\",\"kube-system\"]");
        assertThat(catalogue.get("pod_security_required").asBoolean()).isTrue();
        assertThat(http.get("/api/tiers").statusCode()).isEqualTo(401);
    }

    @Test
    void peopleSeeOnlyTheirOwnGrants() throws Exception {
        grant(anaId, "prod-1", "view");
        grant(evaId, "prod-1", "view");

        JsonNode own = JSON.readTree(http.get("/api/grants", "Cookie", ana).body());
        HttpResponse<String> others = http.get("/api/grants?subject=" + evaId, "Cookie", ana);

        assertThat(own.findValuesAsText("subject_login")).containsOnly("ana");
        assertThat(others.statusCode()).isEqualTo(403);
        assertThat(others.body()).isEqualTo("{\"error\":\"solo puedes consultar tus propios permisos\"}");
        assertThat(JSON.readTree(http.get("/api/grants?subject=" + evaId, "Cookie", admin).body())
                .findValuesAsText("subject_login")).containsOnly("eva");
        for (String asked : new String[] {"eva", "nobody-at-all", "00000000-0000-0000-0000-000000000000", "%20"}) {
            assertThat(http.get("/api/grants?subject=" + asked, "Cookie", ana).statusCode())
                    .as("whether %s exists is not ana's to learn", asked).isEqualTo(403);
        }
        assertThat(JSON.readTree(http.get("/api/grants?subject=ana", "Cookie", ana).body())
                .findValuesAsText("subject_login")).containsOnly("ana");
        assertThat(JSON.readTree(http.get("/api/grants?subject=eva", "Cookie", admin).body())
                .findValuesAsText("subject_login")).as("an administrator may ask by login").containsOnly("eva");
        assertThat(http.get("/api/grants?subject=nobody-at-all", "Cookie", admin).statusCode()).isEqualTo(404);
    }

    @Test
    void aDisabledPersonsGrantsAreKeptButDoNotCount() throws Exception {
        TestingPeople.signUp(klave, "zoe", false);
        String zoeId = null;
        for (JsonNode subject : JSON.readTree(http.get("/api/subjects", "Cookie", admin).body())) {
            if (subject.get("login").asText().equals("zoe")) {
                zoeId = subject.get("id").asText();
            }
        }
        grant(zoeId, "prod-2", "view");

        assertThat(http.send("POST", "/api/subjects/" + zoeId + "/disable", null, "Cookie", admin).statusCode())
                .isEqualTo(200);
        JsonNode kept = JSON.readTree(http.get("/api/grants?subject=" + zoeId, "Cookie", admin).body());
        JsonNode listed = null;
        for (JsonNode subject : JSON.readTree(http.get("/api/subjects", "Cookie", admin).body())) {
            listed = subject.get("id").asText().equals(zoeId) ? subject : listed;
        }

        assertThat(kept).hasSize(1);
        assertThat(kept.get(0).get("active").asBoolean()).isFalse();
        assertThat(listed.get("active_grants").asInt()).isZero();

        http.send("POST", "/api/subjects/" + zoeId + "/enable", null, "Cookie", admin);
        assertThat(JSON.readTree(http.get("/api/grants?subject=" + zoeId, "Cookie", admin).body()).get(0)
                .get("active").asBoolean()).as("they count again").isTrue();
    }

    @Test
    void revokedGrantsAreListedOnlyWhenAskedFor() throws Exception {
        String grant = grant(anaId, "prod-2", "edit");

        HttpResponse<String> revoked = http.send("DELETE", "/api/grants/" + grant, null, "Cookie", admin);

        assertThat(revoked.statusCode()).isEqualTo(204);
        assertThat(http.get("/api/grants?cluster=prod-2", "Cookie", admin).body()).doesNotContain(grant);
        JsonNode all = JSON.readTree(http.get("/api/grants?cluster=prod-2&include_revoked=true", "Cookie", admin).body());
        assertThat(all.findValuesAsText("id")).contains(grant);
        assertThat(http.send("DELETE", "/api/grants/" + grant, null, "Cookie", admin).statusCode()).isEqualTo(204);
        assertThat(http.send("DELETE", "/api/grants/nope", null, "Cookie", admin).body())
                .isEqualTo("{\"error\":\"no encontrado\"}");
        assertThat(http.send("DELETE", "/api/grants/" + grant, null, "Cookie", ana).statusCode()).isEqualTo(403);
    }

    @Test
    void unknownSubjectOrClusterIs404AndNonAdminsCannotGrant() {
        assertThat(http.send("POST", "/api/grants", "{\"subject_id\":\"" + anaId + "\",\"cluster_id\":\"nope\","
                + "\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin).body())
                .isEqualTo("{\"error\":\"cluster no encontrado\"}");
        assertThat(http.send("POST", "/api/grants", "{\"subject_id\":\"00000000-0000-0000-0000-000000000000\","
                + "\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin).body())
                .isEqualTo("{\"error\":\"usuario no encontrado\"}");
        assertThat(http.send("POST", "/api/grants", "{\"subject_id\":\"" + anaId + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", ana).statusCode()).isEqualTo(403);
    }

    @Test
    void clusterRegistrationIsChecked() {
        assertThat(http.send("POST", "/api/clusters", "{\"id\":\"Prod_1\",\"name\":\"x\"}", "Cookie", admin).body())
                .isEqualTo("{\"error\":\"identificador de cluster no válido: usa de 1 a 63 minúsculas, dígitos o '-', "
                        + "empezando y acabando en letra o dígito\"}");
        assertThat(http.send("POST", "/api/clusters", "{\"id\":\"prod-1\",\"name\":\"x\"}", "Cookie", admin).statusCode())
                .isEqualTo(409);
        assertThat(http.get("/api/clusters/prod-1", "Cookie", admin).body()).contains("\"status\":\"pending\"")
                .contains("\"proxy_url\":\"http://localhost:8080/clusters/prod-1\"");
        assertThat(http.get("/api/clusters/prod-1/bootstrap.yaml", "Cookie", admin).body())
                .contains("kind: ClusterRole").contains("name: klave-impersonation")
                .contains("Klave bootstrap for cluster \"prod-1\"");
        HttpResponse<String> noTokens = http.get("/api/clusters/prod-1/namespaces", "Cookie", admin);
        assertThat(noTokens.statusCode()).isEqualTo(409);
        assertThat(http.get("/api/clusters", "Cookie", ana).statusCode()).isEqualTo(403);
    }
}
