package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real kubectl reads, applies and deletes through the simulator as it would on a cluster. */
class KubectlCrudTest {
    private static ClusterSimulator cluster;
    private static Kubectl admin;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder().start();
        admin = new Kubectl(cluster, cluster.adminToken());
    }

    @AfterAll
    static void stop() {
        admin.close();
        cluster.close();
    }

    @Test
    void getNamespacesPrintsTheInitialNamespacesAsATable() {
        Kubectl.Result result = admin.run("get", "ns");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).startsWith("NAME").contains("STATUS", "AGE")
                .containsPattern("default\\s+Active").contains("kube-system", "klave-system");
    }

    @Test
    void getPodsInAnEmptyNamespaceSaysSo() {
        create("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"empty\"}}");

        Kubectl.Result result = admin.run("get", "pods", "-n", "empty");

        assertThat(result.exitCode()).isZero();
        assertThat(result.stderr()).contains("No resources found in empty namespace.");
    }

    @Test
    void getPodsShowsReadyAndStatusColumns() {
        cluster.objects().put("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"default"},
                 "spec":{"containers":[{"name":"app","image":"nginx"}]}}""");

        Kubectl.Result result = admin.run("get", "pods", "web-1");

        assertThat(result.stdout()).containsPattern("NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE")
                .containsPattern("web-1\\s+1/1\\s+Running\\s+0\\s+\\d+s");
    }

    @Test
    void describePodShowsTheEventsOfItsStart() {
        admin.run(Map.of(), """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"described","namespace":"default"},
                 "spec":{"containers":[{"name":"app","image":"app:7"}]}}""", "create", "-f", "-");

        Kubectl.Result described = admin.run("describe", "pod", "described");
        Kubectl.Result events = admin.run("get", "events", "--field-selector=involvedObject.name=described");

        assertThat(described.stdout()).containsPattern("Status:\\s+Running")
                .containsPattern("Normal\\s+Scheduled\\s+.*default-scheduler\\s+"
                        + "Successfully assigned default/described to simulator-node")
                .containsPattern("Normal\\s+Started\\s+.*kubelet\\s+Started container app");
        assertThat(events.stdout()).startsWith("LAST SEEN").contains("pod/described", "Pulled");
    }

    @Test
    void applyCreatesAConfigMapAndThenUpdatesIt() {
        String manifest = """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: settings
                  namespace: default
                data:
                  color: %s
                """;

        Kubectl.Result created = admin.run(Map.of(), manifest.formatted("blue"), "apply", "-f", "-");
        Kubectl.Result updated = admin.run(Map.of(), manifest.formatted("green"), "apply", "-f", "-");

        assertThat(created.stdout()).isEqualTo("configmap/settings created\n");
        assertThat(updated.stdout()).isEqualTo("configmap/settings configured\n");
        assertThat(cluster.objects().get("configmaps", "default", "settings").orElseThrow()
                .path("data").path("color").asText()).isEqualTo("green");
    }

    @Test
    void applyCreatesADeploymentAndUpdatesItsContainerByMergeKey() {
        String manifest = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: shop, namespace: default}
                spec:
                  replicas: 3
                  selector: {matchLabels: {app: shop}}
                  template:
                    metadata: {labels: {app: shop}}
                    spec:
                      containers:
                      - name: app
                        image: %s
                        ports: [{containerPort: 8080}]
                """;
        admin.run(Map.of(), manifest.formatted("shop:1"), "apply", "-f", "-");

        Kubectl.Result updated = admin.run(Map.of(), manifest.formatted("shop:2"), "apply", "-f", "-");
        Kubectl.Result json = admin.run("get", "deploy", "shop", "-o", "json");

        assertThat(updated.stdout()).isEqualTo("deployment.apps/shop configured\n");
        ObjectNode deployment = Json.parseObject(json.stdout());
        assertThat(deployment.at("/spec/template/spec/containers/0/image").asText()).isEqualTo("shop:2");
        assertThat(deployment.at("/spec/template/spec/containers/0/ports/0/containerPort").asInt()).isEqualTo(8080);
        assertThat(deployment.at("/metadata/generation").asInt()).isEqualTo(2);
        assertThat(deployment.at("/status/readyReplicas").asInt()).isEqualTo(3);
        assertThat(admin.run("get", "deploy", "shop").stdout())
                .containsPattern("NAME\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+AGE").containsPattern("shop\\s+3/3\\s+3\\s+3");
    }

    @Test
    void deleteRemovesTheObject() {
        create(configMap("default", "doomed"));

        Kubectl.Result deleted = admin.run("delete", "configmap", "doomed");

        assertThat(deleted.stdout()).isEqualTo("configmap \"doomed\" deleted\n");
        assertThat(cluster.objects().get("configmaps", "default", "doomed")).isEmpty();
    }

    @Test
    void aMissingObjectIsReportedWithTheApiserversMessage() {
        Kubectl.Result result = admin.run("get", "pod", "nope");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.stderr()).isEqualTo("Error from server (NotFound): pods \"nope\" not found\n");
    }

    @Test
    void creatingTwiceIsAConflict() {
        String secret = "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"twice\"},\"stringData\":{\"k\":\"v\"}}";
        create(secret);

        Kubectl.Result again = admin.run(Map.of(), secret, "create", "-f", "-");

        assertThat(again.stderr()).isEqualTo("Error from server (AlreadyExists): error when creating \"STDIN\": "
                + "secrets \"twice\" already exists\n");
    }

    @Test
    void anUnknownTokenIsUnauthorized() {
        try (Kubectl stranger = new Kubectl(cluster, "not-a-token")) {
            Kubectl.Result result = stranger.run("get", "pods");

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.stderr()).endsWith("error: You must be logged in to the server "
                    + "(the server has asked for the client to provide credentials)\n");
        }
        // Sent on purpose, straight to the cluster: the header guard saw it (and would fail a test through Klave).
        assertThat(cluster.takeHeaderViolations()).isNotEmpty().allSatisfy(violation -> {
            assertThat(violation.header()).isEqualTo("Authorization");
            assertThat(violation.why()).isEqualTo("not a token this cluster issued");
        });
    }

    @Test
    void labelSelectorsAndChunkedListsReturnTheMatchingObjects() {
        create("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"labelled\"}}");
        for (int i = 0; i < 5; i++) {
            create(configMap("labelled", "item-" + i));
            admin.run("label", "configmap", "item-" + i, "-n", "labelled", "tier=" + (i % 2 == 0 ? "even" : "odd"));
        }

        Kubectl.Result even = admin.run("get", "cm", "-n", "labelled", "-l", "tier=even", "-o", "name");
        Kubectl.Result notEven = admin.run("get", "cm", "-n", "labelled", "-l", "tier!=even,tier", "-o", "name");
        Kubectl.Result setBased = admin.run("get", "cm", "-n", "labelled", "-l", "tier in (odd)", "-o", "name");
        Kubectl.Result chunked = admin.run("get", "cm", "-n", "labelled", "--chunk-size=2", "-o", "name");

        assertThat(even.stdout()).isEqualTo("configmap/item-0\nconfigmap/item-2\nconfigmap/item-4\n");
        assertThat(notEven.stdout()).isEqualTo("configmap/item-1\nconfigmap/item-3\n");
        assertThat(setBased.stdout()).isEqualTo(notEven.stdout());
        assertThat(chunked.stdout()).isEqualTo(
                "configmap/item-0\nconfigmap/item-1\nconfigmap/item-2\nconfigmap/item-3\nconfigmap/item-4\n");
        assertThat(cluster.requests()).anySatisfy(request -> {
            assertThat(request.path()).isEqualTo("/api/v1/namespaces/labelled/configmaps");
            assertThat(request.queryParameter("continue")).isPresent();
        });
    }

    @Test
    void deleteWithALabelSelectorRemovesOnlyTheMatchingObjects() {
        create("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"sweep\"}}");
        create(configMap("sweep", "keep"));
        create(configMap("sweep", "drop"));
        admin.run("label", "configmap", "drop", "-n", "sweep", "sweep=yes");

        Kubectl.Result result = admin.run("delete", "cm", "-n", "sweep", "-l", "sweep=yes");

        assertThat(result.stdout()).isEqualTo("configmap \"drop\" deleted\n");
        assertThat(cluster.objects().list("configmaps", "sweep")).extracting(object -> object.at("/metadata/name").asText())
                .containsExactly("keep");
    }

    /** {@code kubectl create -f} sends the manifest as JSON (the generators send protobuf). */
    private static void create(String manifest) {
        Kubectl.Result result = admin.run(Map.of(), manifest, "create", "-f", "-");
        assertThat(result.exitCode()).as(result.stderr()).isZero();
    }

    private static String configMap(String namespace, String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"" + namespace + "\"},\"data\":{\"a\":\"b\"}}";
    }
}
