package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.testing.Eventually;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The API's wire format as a client library sees it: Status errors, patches, dry runs, watches. */
class ApiWireTest {
    private static ClusterSimulator cluster;
    private static SimulatorClient admin;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder().start();
        admin = new SimulatorClient(cluster, cluster.adminToken());
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void errorsAreStatusObjects() {
        SimulatorClient.Response missing = admin.get("/api/v1/namespaces/default/pods/x");

        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.contentType()).isEqualTo("application/json");
        assertThat(missing.json()).isEqualTo(Json.parseObject("""
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                 "message":"pods \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}"""));
    }

    @Test
    void aRequestWithoutTokenIsUnauthorized() {
        SimulatorClient.Response response = new SimulatorClient(cluster, "").get("/api/v1/namespaces");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.json().path("reason").asText()).isEqualTo("Unauthorized");
        assertThat(response.json().path("message").asText()).isEqualTo("Unauthorized");
    }

    @Test
    void discoveryListsResourcesWithVerbsAndShortNames() {
        ObjectNode core = admin.get("/api/v1").json();
        ObjectNode apps = admin.get("/apis/apps/v1").json();

        assertThat(core.path("resources").findValuesAsText("name")).contains("pods", "pods/log", "pods/exec",
                "pods/portforward", "configmaps", "secrets", "services", "namespaces", "events");
        assertThat(apps.toString()).contains("\"name\":\"deployments\"", "\"shortNames\":[\"deploy\"]",
                "\"name\":\"deployments/scale\"", "\"group\":\"autoscaling\"");
        assertThat(admin.get("/version").json().path("gitVersion").asText()).startsWith("v1.32");
    }

    @Test
    void aggregatedDiscoveryIsServedWhenAskedFor() {
        SimulatorClient.Response response = admin.send("GET", "/apis", "", Map.of("Accept",
                "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"));
        SimulatorClient.Response legacy = admin.get("/apis");

        assertThat(response.contentType()).isEqualTo(AggregatedDiscovery.CONTENT_TYPE);
        ObjectNode list = response.json();
        assertThat(list.path("kind").asText()).isEqualTo("APIGroupDiscoveryList");
        assertThat(list.path("items").findValuesAsText("resource")).contains("deployments", "roles", "selfsubjectaccessreviews");
        assertThat(list.toString()).contains("{\"subresource\":\"scale\",\"responseKind\":"
                + "{\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"Scale\"}");
        assertThat(legacy.json().path("kind").asText()).isEqualTo("APIGroupList");
    }

    @Test
    void mergeAndJsonPatchesChangeTheStoredObject() {
        create("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"patched\"},\"data\":{\"a\":\"1\",\"b\":\"2\"}}");

        SimulatorClient.Response merged = admin.send("PATCH", "/api/v1/namespaces/default/configmaps/patched",
                "{\"data\":{\"a\":null,\"c\":\"3\"}}", Map.of("Content-Type", "application/merge-patch+json"));
        SimulatorClient.Response jsonPatched = admin.send("PATCH", "/api/v1/namespaces/default/configmaps/patched",
                "[{\"op\":\"replace\",\"path\":\"/data/b\",\"value\":\"20\"},{\"op\":\"add\",\"path\":\"/data/d\",\"value\":\"4\"}]",
                Map.of("Content-Type", "application/json-patch+json"));

        assertThat(merged.json().path("data").toString()).isEqualTo("{\"b\":\"2\",\"c\":\"3\"}");
        assertThat(jsonPatched.json().path("data").toString()).isEqualTo("{\"b\":\"20\",\"c\":\"3\",\"d\":\"4\"}");
    }

    @Test
    void dryRunOnEveryWriteAnswersAsIfWrittenAndStoresNothing() {
        create("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"steady\"},\"data\":{\"a\":\"1\"}}");
        long before = cluster.objects().resourceVersion();
        String path = "/api/v1/namespaces/default/configmaps";

        SimulatorClient.Response post = admin.send("POST", path + "?dryRun=All",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"ghost\"}}", Map.of());
        SimulatorClient.Response put = admin.send("PUT", path + "/steady?dryRun=All",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"steady\"},\"data\":{\"a\":\"2\"}}", Map.of());
        SimulatorClient.Response patch = admin.send("PATCH", path + "/steady?dryRun=All", "{\"data\":{\"a\":\"3\"}}",
                Map.of("Content-Type", "application/merge-patch+json"));
        SimulatorClient.Response delete = admin.send("DELETE", path + "/steady?dryRun=All", "", Map.of());
        SimulatorClient.Response wrong = admin.send("DELETE", path + "/steady?dryRun=Yes", "", Map.of());

        assertThat(post.status()).isEqualTo(201);
        assertThat(post.json().at("/metadata/uid").asText()).isNotEmpty();
        assertThat(put.json().at("/data/a").asText()).isEqualTo("2");
        assertThat(patch.json().at("/data/a").asText()).isEqualTo("3");
        assertThat(delete.status()).isEqualTo(200);
        assertThat(wrong.status()).isEqualTo(400);
        assertThat(cluster.objects().get("configmaps", "default", "ghost")).isEmpty();
        assertThat(cluster.objects().get("configmaps", "default", "steady").orElseThrow().at("/data/a").asText()).isEqualTo("1");
        assertThat(cluster.objects().resourceVersion()).isEqualTo(before);
    }

    @Test
    void theStatusSubresourceChangesOnlyStatus() {
        admin.send("POST", "/api/v1/namespaces/default/pods", """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"stat"},"spec":{"containers":[{"name":"a","image":"a"}]}}""",
                Map.of());

        SimulatorClient.Response response = admin.send("PATCH", "/api/v1/namespaces/default/pods/stat/status",
                "{\"status\":{\"phase\":\"Succeeded\"},\"spec\":{\"nodeName\":\"elsewhere\"}}",
                Map.of("Content-Type", "application/merge-patch+json"));

        assertThat(response.json().at("/status/phase").asText()).isEqualTo("Succeeded");
        assertThat(response.json().at("/spec/nodeName").asText()).isEqualTo("simulator-node");
    }

    @Test
    void anUpdateWithAStaleResourceVersionIsAConflict() {
        ObjectNode created = create("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"raced\"}}");
        admin.send("PATCH", "/api/v1/namespaces/default/configmaps/raced", "{\"data\":{\"x\":\"1\"}}",
                Map.of("Content-Type", "application/merge-patch+json"));

        SimulatorClient.Response stale = admin.send("PUT", "/api/v1/namespaces/default/configmaps/raced", created.toString(), Map.of());

        assertThat(stale.status()).isEqualTo(409);
        assertThat(stale.json().path("message").asText()).isEqualTo("Operation cannot be fulfilled on configmaps \"raced\": "
                + "the object has been modified; please apply your changes to the latest version and try again");
    }

    @Test
    void aWatchResumesAfterTheGivenResourceVersion() throws Exception {
        ObjectNode first = create("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"w1\",\"labels\":{\"w\":\"y\"}}}");
        create("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"w2\",\"labels\":{\"w\":\"y\"}}}");
        admin.send("DELETE", "/api/v1/namespaces/default/configmaps/w1", "", Map.of());
        String from = first.at("/metadata/resourceVersion").asText();

        try (Stream<String> lines = watch("/api/v1/namespaces/default/configmaps?watch=1&labelSelector=w%3Dy&resourceVersion=" + from)) {
            Iterator<String> events = lines.iterator();

            assertThat(Json.parseObject(events.next()).path("type").asText()).isEqualTo("ADDED");
            ObjectNode deleted = Json.parseObject(events.next());
            assertThat(deleted.path("type").asText()).isEqualTo("DELETED");
            assertThat(deleted.at("/object/metadata/name").asText()).isEqualTo("w1");
        }
    }

    @Test
    void aWatchFromACompactedResourceVersionGetsAnExpiredError() throws Exception {
        try (Stream<String> lines = watch("/api/v1/namespaces?watch=true&resourceVersion=1")) {
            ObjectNode event = Json.parseObject(lines.iterator().next());

            assertThat(event.path("type").asText()).isEqualTo("ERROR");
            assertThat(event.at("/object/code").asInt()).isEqualTo(410);
            assertThat(event.at("/object/reason").asText()).isEqualTo("Expired");
        }
    }

    @Test
    void manyConcurrentWatchesEachReceiveTheEventAndAreReleased() throws Exception {
        List<Stream<String>> watches = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            watches.add(watch("/api/v1/namespaces/default/secrets?watch=true"));
        }
        Eventually.until("all watches are registered", Duration.ofSeconds(10), () -> cluster.openWatches() >= 40);

        create("{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"broadcast\"}}");

        for (Stream<String> watch : watches) {
            assertThat(watch.iterator().next()).contains("\"name\":\"broadcast\"");
            watch.close();
        }
        Eventually.until("the simulator released every watch", Duration.ofSeconds(10), () -> cluster.openWatches() == 0);
    }

    @Test
    void tlsNegotiatesHttp11EvenWhenTheClientOffersHttp2() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .sslContext(SimulatorClient.trusting(cluster.caCertificatePem())).build();

        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(cluster.url() + "/version"))
                .header("Authorization", "Bearer " + cluster.adminToken()).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(response.statusCode()).isEqualTo(200);
    }

    private static ObjectNode create(String json) {
        SimulatorClient.Response response = admin.send("POST", "/api/v1/namespaces/default/" + plural(json), json, Map.of());
        assertThat(response.status()).as(response.body()).isEqualTo(201);
        return response.json();
    }

    private static String plural(String json) {
        return Json.parseObject(json).path("kind").asText().toLowerCase(Locale.ROOT) + "s";
    }

    private static Stream<String> watch(String path) throws IOException, InterruptedException {
        HttpResponse<Stream<String>> response = admin.httpClient().send(HttpRequest.newBuilder(URI.create(cluster.url() + path))
                .header("Authorization", "Bearer " + cluster.adminToken()).build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
