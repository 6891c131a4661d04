package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The example.com Widget custom resource and the two Event kinds (core v1 and events.k8s.io/v1):
 * discovery, CRUD, server-side apply, Table, and RBAC as a real cluster has it for custom
 * resources (view, edit and admin do not reach them).
 */
class CustomResourceTest {
    private static final String WIDGETS = "/apis/example.com/v1/namespaces/default/widgets";
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
    private static final String APPLY = "application/apply-patch+yaml";

    private static ClusterSimulator cluster;
    private static SimulatorClient admin;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder()
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: RoleBinding
                        metadata: {name: ana-admin, namespace: default}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin}
                        subjects: [{kind: User, name: "user:ana", apiGroup: rbac.authorization.k8s.io}]
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: RoleBinding
                        metadata: {name: bob-cluster-admin, namespace: default}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
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
    void widgetsAreInAggregatedAndLegacyDiscovery() {
        ObjectNode aggregated = admin.send("GET", "/apis", "", Map.of("Accept", AggregatedDiscovery.CONTENT_TYPE)).json();
        ObjectNode groups = admin.get("/apis").json();
        ObjectNode resources = admin.get("/apis/example.com/v1").json();

        JsonNode widgets = WorkloadsTest.resource(aggregated, "example.com", "widgets");
        assertThat(widgets.path("responseKind").toString()).isEqualTo("{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Widget\"}");
        assertThat(widgets.path("scope").asText()).isEqualTo("Namespaced");
        assertThat(widgets.path("shortNames").toString()).isEqualTo("[\"wdg\"]");
        assertThat(groups.path("groups").findValuesAsText("name")).contains("example.com", "events.k8s.io");
        assertThat(resources.path("groupVersion").asText()).isEqualTo("example.com/v1");
        assertThat(resources.at("/resources/0/kind").asText()).isEqualTo("Widget");
        assertThat(admin.get("/apis/example.com").json().at("/preferredVersion/groupVersion").asText()).isEqualTo("example.com/v1");
    }

    @Test
    void aWidgetIsCreatedListedAppliedAndDeleted() {
        SimulatorClient.Response created = admin.send("POST", WIDGETS,
                "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"gear\"},\"spec\":{\"size\":1}}",
                Map.of());
        SimulatorClient.Response applied = admin.send("PATCH", WIDGETS + "/gear?fieldManager=tool&force=true",
                "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: gear}\nspec: {size: 2, color: red}\n",
                Map.of("Content-Type", APPLY));
        SimulatorClient.Response appliedNew = admin.send("PATCH", WIDGETS + "/cog?fieldManager=tool",
                "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: cog}\nspec: {size: 5}\n", Map.of("Content-Type", APPLY));
        ObjectNode list = admin.get(WIDGETS).json();
        SimulatorClient.Response deleted = admin.send("DELETE", WIDGETS + "/cog", "", Map.of());

        assertThat(created.status()).isEqualTo(201);
        assertThat(applied.json().path("spec").toString()).isEqualTo("{\"size\":2,\"color\":\"red\"}");
        assertThat(applied.json().at("/metadata/generation").asInt()).isEqualTo(2);
        assertThat(applied.json().at("/metadata/managedFields").findValuesAsText("manager")).contains("tool");
        assertThat(appliedNew.status()).isEqualTo(201);
        assertThat(list.path("kind").asText()).isEqualTo("WidgetList");
        assertThat(list.path("apiVersion").asText()).isEqualTo("example.com/v1");
        assertThat(list.path("items").findValuesAsText("name")).contains("gear", "cog");
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(admin.get(WIDGETS + "/cog").json().path("message").asText()).isEqualTo("widgets.example.com \"cog\" not found");
    }

    @Test
    void aWidgetTableHasNameAndAge() {
        cluster.objects().put("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"sprocket\"}}");

        ObjectNode table = admin.send("GET", WIDGETS + "/sprocket", "", Map.of("Accept", TABLE)).json();

        assertThat(table.path("columnDefinitions").findValuesAsText("name")).containsExactly("Name", "Age");
        assertThat(table.at("/rows/0/cells/0").asText()).isEqualTo("sprocket");
        assertThat(table.at("/rows/0/cells/1").asText()).matches("\\d+s");
    }

    @Test
    void theBuiltInAdminRoleDoesNotReachACustomResourceButClusterAdminDoes() {
        SimulatorClient ana = new SimulatorClient(cluster, cluster.tokenFor("user:ana"));
        SimulatorClient bob = new SimulatorClient(cluster, cluster.tokenFor("user:bob"));

        SimulatorClient.Response refused = ana.get(WIDGETS);

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().path("message").asText()).isEqualTo("widgets.example.com is forbidden: User \"user:ana\" "
                + "cannot list resource \"widgets\" in API group \"example.com\" in the namespace \"default\"");
        assertThat(ana.get("/api/v1/namespaces/default/configmaps").status()).isEqualTo(200);
        assertThat(bob.get(WIDGETS).status()).isEqualTo(200);
    }

    @Test
    void eventsOfTheTwoGroupsAreDistinctKindsWithTheirOwnFields() {
        admin.send("POST", "/api/v1/namespaces/default/pods", """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"noisy"},"spec":{"containers":[{"name":"a","image":"a"}]}}""",
                Map.of());
        SimulatorClient.Response created = admin.send("POST", "/apis/events.k8s.io/v1/namespaces/default/events", """
                {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"noisy.1"},"eventTime":"2025-01-01T00:00:00.000000Z",
                 "reportingController":"example.com/operator","reportingInstance":"operator-0","action":"Scale",
                 "reason":"Scaled","note":"scaled up","type":"Normal","regarding":{"kind":"Pod","name":"noisy","namespace":"default"}}""",
                Map.of());

        ObjectNode core = admin.get("/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dnoisy").json();
        ObjectNode v1 = admin.send("GET", "/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=regarding.name%3Dnoisy",
                "", Map.of("Accept", TABLE)).json();

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(core.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(core.path("items").findValuesAsText("reason")).contains("Scheduled", "Started").doesNotContain("Scaled");
        assertThat(v1.path("columnDefinitions").findValuesAsText("name")).startsWith("Last Seen", "Type", "Reason", "Object", "Message");
        assertThat(v1.at("/rows/0/cells").toString()).contains("\"Scaled\",\"pod/noisy\",\"scaled up\"");
        assertThat(admin.get("/api/v1/namespaces/default/events/noisy.1").status()).isEqualTo(404);
    }
}
