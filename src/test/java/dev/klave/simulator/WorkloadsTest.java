package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * StatefulSets and DaemonSets over the wire: discovery, the status a healthy cluster reports, the
 * Table columns kubectl prints, the scale subresource, a rollout restart, and RBAC through the
 * built-in roles.
 */
class WorkloadsTest {
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
    private static final String APPS = "/apis/apps/v1/namespaces/default/";

    private static ClusterSimulator cluster;
    private static SimulatorClient admin;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder()
                .object(workload("StatefulSet", "db", "replicas: 3\n  serviceName: db\n  "))
                .object(workload("DaemonSet", "agent", ""))
                .object(workload("DaemonSet", "gpu-agent", "").replace("containers:",
                        "nodeSelector: {accelerator: gpu}\n      containers:"))
                .object(workload("Deployment", "web", "replicas: 2\n  "))
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: RoleBinding
                        metadata: {name: ana-view, namespace: default}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
                        subjects: [{kind: User, name: "user:ana", apiGroup: rbac.authorization.k8s.io}]
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: RoleBinding
                        metadata: {name: bob-edit, namespace: default}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
                        subjects: [{kind: User, name: "user:bob", apiGroup: rbac.authorization.k8s.io}]
                        """)
                .start();
        admin = new SimulatorClient(cluster, cluster.adminToken());
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void discoveryListsStatefulSetsAndDaemonSetsWithShortNamesAndSubresources() {
        ObjectNode legacy = admin.get("/apis/apps/v1").json();
        ObjectNode aggregated = admin.send("GET", "/apis", "", Map.of("Accept", AggregatedDiscovery.CONTENT_TYPE)).json();

        assertThat(legacy.path("resources").findValuesAsText("name")).contains("statefulsets", "statefulsets/scale",
                "statefulsets/status", "daemonsets", "daemonsets/status");
        JsonNode statefulSets = resource(aggregated, "apps", "statefulsets");
        JsonNode daemonSets = resource(aggregated, "apps", "daemonsets");
        assertThat(statefulSets.path("shortNames").toString()).isEqualTo("[\"sts\"]");
        assertThat(statefulSets.path("categories").toString()).isEqualTo("[\"all\"]");
        assertThat(statefulSets.path("subresources").toString()).contains("{\"subresource\":\"scale\",\"responseKind\":"
                + "{\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"Scale\"}", "\"subresource\":\"status\"");
        assertThat(daemonSets.path("shortNames").toString()).isEqualTo("[\"ds\"]");
        assertThat(daemonSets.path("categories").toString()).isEqualTo("[\"all\"]");
        assertThat(daemonSets.path("subresources").findValuesAsText("subresource")).containsExactly("status");
    }

    @Test
    void aStatefulSetReachesItsReplicasWithTheApiserversSpecDefaults() {
        ObjectNode db = admin.get(APPS + "statefulsets/db").json();

        assertThat(db.at("/spec/podManagementPolicy").asText()).isEqualTo("OrderedReady");
        assertThat(db.at("/spec/updateStrategy").toString()).isEqualTo("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"partition\":0}}");
        assertThat(db.at("/status/replicas").asInt()).isEqualTo(3);
        assertThat(db.at("/status/readyReplicas").asInt()).isEqualTo(3);
        assertThat(db.at("/status/observedGeneration").asInt()).isEqualTo(1);
        assertThat(db.at("/status/currentRevision").asText()).startsWith("db-").isEqualTo(db.at("/status/updateRevision").asText());
    }

    @Test
    void aDaemonSetRunsOnTheOneNodeUnlessItsNodeSelectorExcludesIt() {
        ObjectNode agent = admin.get(APPS + "daemonsets/agent").json();
        ObjectNode gpu = admin.get(APPS + "daemonsets/gpu-agent").json();

        assertThat(agent.at("/status/desiredNumberScheduled").asInt()).isEqualTo(1);
        assertThat(agent.at("/status/numberReady").asInt()).isEqualTo(1);
        assertThat(agent.at("/spec/updateStrategy/type").asText()).isEqualTo("RollingUpdate");
        assertThat(gpu.at("/status/desiredNumberScheduled").asInt()).isZero();
    }

    @Test
    void tablesHaveTheColumnsKubectlPrints() {
        String agents = "labelSelector=app+in+%28agent%2Cgpu-agent%29";
        ObjectNode statefulSets = admin.send("GET", APPS + "statefulsets?labelSelector=app%3Ddb", "", Map.of("Accept", TABLE)).json();
        ObjectNode daemonSets = admin.send("GET", APPS + "daemonsets?limit=1&" + agents, "", Map.of("Accept", TABLE)).json();

        assertThat(statefulSets.path("columnDefinitions").findValuesAsText("name"))
                .containsExactly("Name", "Ready", "Age", "Containers", "Images");
        assertThat(statefulSets.at("/rows/0/cells").toString()).startsWith("[\"db\",\"3/3\",").endsWith(",\"app\",\"app:1\"]");
        assertThat(daemonSets.path("columnDefinitions").findValuesAsText("name")).startsWith("Name", "Desired", "Current",
                "Ready", "Up-to-date", "Available", "Node Selector", "Age");
        assertThat(daemonSets.at("/rows/0/cells").toString()).startsWith("[\"agent\",1,1,1,1,1,\"<none>\",");
        assertThat(daemonSets.at("/metadata/continue").asText()).isNotEmpty();
        ObjectNode next = admin.send("GET", APPS + "daemonsets?limit=1&" + agents + "&continue="
                + daemonSets.at("/metadata/continue").asText(),
                "", Map.of("Accept", TABLE)).json();
        assertThat(next.at("/rows/0/cells").toString()).startsWith("[\"gpu-agent\",0,0,0,0,0,\"accelerator=gpu\",");
    }

    @Test
    void theScaleSubresourceOfAStatefulSetReadsAndWritesItsReplicas() {
        cluster.objects().put(workload("StatefulSet", "cache", "replicas: 1\n  "));
        String path = APPS + "statefulsets/cache/scale";

        ObjectNode scale = admin.get(path).json();
        SimulatorClient.Response patched = admin.send("PATCH", path, "{\"spec\":{\"replicas\":4}}",
                Map.of("Content-Type", "application/merge-patch+json"));
        scale.with("spec").put("replicas", 2);
        SimulatorClient.Response stale = admin.send("PUT", path, scale.toString(), Map.of());
        scale.with("metadata").remove("resourceVersion");
        SimulatorClient.Response put = admin.send("PUT", path, scale.toString(), Map.of());

        assertThat(scale.path("kind").asText()).isEqualTo("Scale");
        assertThat(scale.path("apiVersion").asText()).isEqualTo("autoscaling/v1");
        assertThat(scale.at("/status/selector").asText()).isEqualTo("app=cache");
        assertThat(patched.json().at("/spec/replicas").asInt()).isEqualTo(4);
        assertThat(stale.status()).isEqualTo(409);
        assertThat(stale.json().path("message").asText()).isEqualTo("Operation cannot be fulfilled on statefulsets.apps "
                + "\"cache\": the object has been modified; please apply your changes to the latest version and try again");
        assertThat(put.status()).isEqualTo(200);
        assertThat(cluster.objects().get("statefulsets", "default", "cache").orElseThrow().at("/status/readyReplicas").asInt())
                .isEqualTo(2);
    }

    @Test
    void aRolloutRestartStoresTheTemplateAnnotationAndMovesTheGeneration() {
        String patch = "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":"
                + "{\"kubectl.kubernetes.io/restartedAt\":\"2025-01-01T00:00:00Z\"}}}}}";
        cluster.objects().put(workload("Deployment", "web-r", ""));
        cluster.objects().put(workload("StatefulSet", "db-r", ""));
        cluster.objects().put(workload("DaemonSet", "agent-r", ""));
        for (String path : new String[] {"deployments/web-r", "statefulsets/db-r", "daemonsets/agent-r"}) {
            long generation = admin.get(APPS + path).json().at("/metadata/generation").asLong();

            // kubectl sends a strategic merge patch; other clients a merge patch, which is the same here.
            String contentType = path.startsWith("deployments") ? "application/merge-patch+json"
                    : "application/strategic-merge-patch+json";
            ObjectNode restarted = admin.send("PATCH", APPS + path, patch, Map.of("Content-Type", contentType)).json();

            assertThat(restarted.at("/spec/template/metadata/annotations/kubectl.kubernetes.io~1restartedAt").asText())
                    .as(path).isEqualTo("2025-01-01T00:00:00Z");
            assertThat(restarted.at("/spec/template/metadata/labels/app").asText()).as(path).isNotEmpty();
            assertThat(restarted.at("/metadata/generation").asLong()).as(path).isEqualTo(generation + 1);
            assertThat(restarted.at("/status/observedGeneration").asLong()).as(path).isEqualTo(generation + 1);
        }
    }

    @Test
    void viewReadsStatefulSetsAndDaemonSetsAndEditAlsoScalesAndPatchesThem() {
        SimulatorClient ana = new SimulatorClient(cluster, cluster.tokenFor("user:ana"));
        SimulatorClient bob = new SimulatorClient(cluster, cluster.tokenFor("user:bob"));
        Map<String, String> merge = Map.of("Content-Type", "application/merge-patch+json");

        assertThat(ana.get(APPS + "statefulsets").status()).isEqualTo(200);
        assertThat(ana.get(APPS + "daemonsets/agent").status()).isEqualTo(200);
        assertThat(ana.get(APPS + "statefulsets/db/scale").status()).isEqualTo(200);
        SimulatorClient.Response refused = ana.send("PATCH", APPS + "statefulsets/db/scale", "{\"spec\":{\"replicas\":3}}", merge);
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("message").asText()).isEqualTo("statefulsets.apps \"db\" is forbidden: User \"user:ana\" "
                + "cannot patch resource \"statefulsets/scale\" in API group \"apps\" in the namespace \"default\"");
        assertThat(ana.get("/apis/apps/v1/namespaces/kube-system/daemonsets").status()).isEqualTo(403);
        assertThat(bob.send("PATCH", APPS + "statefulsets/db/scale", "{\"spec\":{\"replicas\":3}}", merge).status()).isEqualTo(200);
        assertThat(bob.send("PATCH", APPS + "daemonsets/agent", "{\"metadata\":{\"labels\":{\"tier\":\"node\"}}}", merge).status())
                .isEqualTo(200);
        assertThat(bob.send("PATCH", APPS + "daemonsets/agent/status", "{\"status\":{}}", merge).status()).isEqualTo(403);
    }

    static String workload(String kind, String name, String spec) {
        return """
                apiVersion: apps/v1
                kind: %s
                metadata: {name: %s, namespace: default, labels: {app: %s}}
                spec:
                  %sselector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec:
                      containers:
                      - {name: app, image: "app:1"}
                """.formatted(kind, name, name, spec, name, name);
    }

    static JsonNode resource(ObjectNode aggregated, String group, String plural) {
        for (JsonNode item : aggregated.path("items")) {
            if (item.at("/metadata/name").asText().equals(group)) {
                for (JsonNode resource : item.at("/versions/0/resources")) {
                    if (resource.path("resource").asText().equals(plural)) {
                        return resource;
                    }
                }
            }
        }
        throw new AssertionError(group + " " + plural + " is not in discovery");
    }
}
