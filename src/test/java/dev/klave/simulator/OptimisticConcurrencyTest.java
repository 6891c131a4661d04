package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A write that names a resourceVersion, and a delete with preconditions, succeed only against the
 * object as it is stored; a dry run is refused the same way and stores nothing.
 */
class OptimisticConcurrencyTest {
    private static final String CONFIG_MAPS = "/api/v1/namespaces/default/configmaps/";
    private static final String MODIFIED = "the object has been modified; please apply your changes to the latest version and try again";

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
    void anApplyNamingAStaleResourceVersionIsAConflictEvenAsADryRun() {
        String stale = configMap("applied").at("/metadata/resourceVersion").asText();
        touch("applied");
        String body = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, resourceVersion: \"" + stale + "\"}\ndata: {a: \"2\"}\n";
        long before = cluster.objects().resourceVersion();

        SimulatorClient.Response applied = admin.send("PATCH", CONFIG_MAPS + "applied?fieldManager=tool&force=true", body,
                Map.of("Content-Type", "application/apply-patch+yaml"));
        SimulatorClient.Response dryRun = admin.send("PATCH", CONFIG_MAPS + "applied?fieldManager=tool&force=true&dryRun=All",
                body, Map.of("Content-Type", "application/apply-patch+yaml"));

        assertThat(applied.status()).isEqualTo(409);
        assertThat(applied.json()).isEqualTo(Json.parseObject("""
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                 "message":"Operation cannot be fulfilled on configmaps \\"applied\\": %s",
                 "reason":"Conflict","details":{"name":"applied","kind":"configmaps"},"code":409}""".formatted(MODIFIED)));
        assertThat(dryRun.status()).isEqualTo(409);
        assertThat(cluster.objects().resourceVersion()).isEqualTo(before);
    }

    @Test
    void anApplyNamingTheCurrentResourceVersionIsApplied() {
        String current = configMap("current").at("/metadata/resourceVersion").asText();

        SimulatorClient.Response applied = admin.send("PATCH", CONFIG_MAPS + "current?fieldManager=tool&force=true",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: current, resourceVersion: \"" + current + "\"}\ndata: {a: \"2\"}\n",
                Map.of("Content-Type", "application/apply-patch+yaml"));

        assertThat(applied.status()).isEqualTo(200);
        assertThat(applied.json().at("/data/a").asText()).isEqualTo("2");
    }

    @Test
    void aMergeOrJsonPatchNamingAStaleResourceVersionIsAConflict() {
        String stale = configMap("patched").at("/metadata/resourceVersion").asText();
        touch("patched");

        SimulatorClient.Response merge = admin.send("PATCH", CONFIG_MAPS + "patched",
                "{\"metadata\":{\"resourceVersion\":\"" + stale + "\"},\"data\":{\"a\":\"3\"}}",
                Map.of("Content-Type", "application/merge-patch+json"));
        SimulatorClient.Response json = admin.send("PATCH", CONFIG_MAPS + "patched",
                "[{\"op\":\"replace\",\"path\":\"/metadata/resourceVersion\",\"value\":\"" + stale + "\"}]",
                Map.of("Content-Type", "application/json-patch+json"));

        assertThat(merge.status()).isEqualTo(409);
        assertThat(merge.json().path("message").asText()).isEqualTo("Operation cannot be fulfilled on configmaps \"patched\": " + MODIFIED);
        assertThat(json.status()).isEqualTo(409);
        assertThat(cluster.objects().get("configmaps", "default", "patched").orElseThrow().at("/data/a").asText()).isEqualTo("touched");
    }

    @Test
    void aConflictNamesTheResourceWithItsGroup() {
        cluster.objects().put(WorkloadsTest.workload("Deployment", "api", ""));

        SimulatorClient.Response response = admin.send("PATCH", "/apis/apps/v1/namespaces/default/deployments/api",
                "{\"metadata\":{\"resourceVersion\":\"1\"}}", Map.of("Content-Type", "application/strategic-merge-patch+json"));

        assertThat(response.status()).isEqualTo(409);
        assertThat(response.json().path("message").asText()).isEqualTo("Operation cannot be fulfilled on deployments.apps \"api\": "
                + MODIFIED);
    }

    @Test
    void aDeleteWhoseUidPreconditionFailsIsAConflictAndDeletesNothing() {
        configMap("guarded");
        String body = "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"preconditions\":{\"uid\":\"not-the-uid\"}}";
        String uid = cluster.objects().get("configmaps", "default", "guarded").orElseThrow().at("/metadata/uid").asText();

        SimulatorClient.Response deleted = admin.send("DELETE", CONFIG_MAPS + "guarded", body, Map.of());
        SimulatorClient.Response dryRun = admin.send("DELETE", CONFIG_MAPS + "guarded?dryRun=All", body, Map.of());

        assertThat(deleted.status()).isEqualTo(409);
        // rest.BeforeDelete names the kind ("ConfigMap"), not the resource, in this Conflict.
        assertThat(deleted.json()).isEqualTo(Json.parseObject("""
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                 "message":"Operation cannot be fulfilled on ConfigMap \\"guarded\\": the UID in the precondition (not-the-uid) \
                does not match the UID in record (%s). The object might have been deleted and then recreated",
                 "reason":"Conflict","details":{"name":"guarded","kind":"ConfigMap"},"code":409}""".formatted(uid)));
        assertThat(dryRun.status()).isEqualTo(409);
        assertThat(cluster.objects().get("configmaps", "default", "guarded")).isPresent();
    }

    @Test
    void aDeleteWhoseResourceVersionPreconditionFailsIsAConflict() {
        cluster.objects().put(WorkloadsTest.workload("StatefulSet", "db", ""));
        String version = cluster.objects().get("statefulsets", "default", "db").orElseThrow().at("/metadata/resourceVersion").asText();

        SimulatorClient.Response deleted = admin.send("DELETE", "/apis/apps/v1/namespaces/default/statefulsets/db",
                "{\"preconditions\":{\"resourceVersion\":\"7\"}}", Map.of());

        assertThat(deleted.status()).isEqualTo(409);
        assertThat(deleted.json().path("message").asText()).isEqualTo("Operation cannot be fulfilled on StatefulSet.apps \"db\": "
                + "the ResourceVersion in the precondition (7) does not match the ResourceVersion in record (" + version
                + "). The object might have been modified");
    }

    @Test
    void aDeleteWhosePreconditionsHoldDeletes() {
        ObjectNode created = configMap("matching");
        String body = "{\"preconditions\":{\"uid\":\"" + created.at("/metadata/uid").asText() + "\",\"resourceVersion\":\""
                + created.at("/metadata/resourceVersion").asText() + "\"}}";

        SimulatorClient.Response deleted = admin.send("DELETE", CONFIG_MAPS + "matching", body, Map.of());

        assertThat(deleted.status()).isEqualTo(200);
        assertThat(cluster.objects().get("configmaps", "default", "matching")).isEmpty();
    }

    private static ObjectNode configMap(String name) {
        SimulatorClient.Response created = admin.send("POST", "/api/v1/namespaces/default/configmaps",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"a\":\"1\"}}",
                Map.of());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json();
    }

    private static void touch(String name) {
        SimulatorClient.Response touched = admin.send("PATCH", CONFIG_MAPS + name, "{\"data\":{\"a\":\"touched\"}}",
                Map.of("Content-Type", "application/merge-patch+json"));
        assertThat(touched.status()).isEqualTo(200);
    }
}
