package dev.klave.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.agent.approval.Actor;
import dev.klave.agent.approval.Approvals;
import dev.klave.agent.approval.HeldCall;
import dev.klave.cluster.ClusterId;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import dev.klave.testing.TestingClusters;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bot whose writes need approval, on a bootstrapped {@code prod-1}, and the requests it makes:
 * held through the approvals' own Java API, as the agent's tools hold them.
 */
final class HeldRequests {
    private static final AtomicInteger CALLS = new AtomicInteger();

    private final WebKlave web;
    private final SubjectId bot;
    /** The bot's own credential: a held write is approved only while what asked for it can run it. */
    private final String credential;

    private HeldRequests(WebKlave web, SubjectId bot, String credential) {
        this.web = web;
        this.bot = bot;
        this.credential = credential;
    }

    /** Bootstraps {@code prod-1} and creates the bot {@code login}, whose writes wait for a person. */
    static HeldRequests ofNewBot(WebKlave web, String admin, String login) {
        TestingClusters.bootstrap(web.klave, admin, web.cluster, "prod-1");
        JsonNode created = web.expect(201, "POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"" + login + "\"}",
                admin);
        String id = created.get("id").asText();
        web.expect(200, "PATCH", "/api/subjects/" + id, "{\"writes_need_approval\":true}", admin);
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + id + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"*\"}", admin);
        String credential = web.expect(201, "POST", "/api/credentials", "{\"ttl\":\"24h\",\"subject_id\":\"" + id
                + "\",\"cluster_id\":\"prod-1\"}", admin).get("id").asText();
        return new HeldRequests(web, new SubjectId(id), credential);
    }

    private Actor actor() {
        return new Actor(bot, Optional.of(credential), Optional.empty());
    }

    /** A write of the bot, held as the scale tool holds one: deployments/web from 2 to 5 replicas. */
    String holdScale() {
        String preview = """
                {"cluster": "prod-1", "namespace": "team-a", "verb": "patch", "resource": "deployments", "name": "web",
                 "current": {"apiVersion": "apps/v1", "kind": "Deployment",
                   "metadata": {"name": "web", "namespace": "team-a", "resourceVersion": "41"},
                   "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}},
                 "result": {"apiVersion": "apps/v1", "kind": "Deployment",
                   "metadata": {"name": "web", "namespace": "team-a", "resourceVersion": "41"},
                   "spec": {"replicas": 5, "template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}},
                 "changes": [{"path": "spec.replicas", "before": 2, "after": 5}]}
                """;
        return hold("scale", "patch", "deployments", "web",
                new HeldCall(Method.PATCH,
                        ClusterPath.of("apis", "apps", "v1", "namespaces", "team-a", "deployments", "web", "scale"),
                        Query.NONE,
                        Optional.of("{\"spec\":{\"replicas\":5}}"), Optional.of("application/merge-patch+json")),
                preview);
    }

    /** A Secret the bot would change: its values arrive hidden, the changed one marked (spec 3 §8). */
    String holdSecret() {
        String preview = """
                {"cluster": "prod-1", "namespace": "team-a", "verb": "apply", "resource": "secrets", "name": "db",
                 "current": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db", "namespace": "team-a"},
                   "data": {"password": "<redacted, 8 bytes>", "user": "<redacted, 5 bytes>"}},
                 "result": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db", "namespace": "team-a"},
                   "data": {"password": "<redacted, 12 bytes, changed>", "user": "<redacted, 5 bytes>"}},
                 "changes": [{"path": "data.password", "before": "<redacted, 8 bytes>",
                   "after": "<redacted, 12 bytes, changed>"}]}
                """;
        return hold("apply", "apply", "secrets", "db", new HeldCall(Method.PATCH,
                ClusterPath.of("api", "v1", "namespaces", "team-a", "secrets", "db"),
                Query.NONE.with("fieldManager", "service-mcp"), Optional.of("{}"),
                Optional.of("application/apply-patch+yaml")), preview);
    }

    private String hold(String tool, String verb, String resource, String name, HeldCall call, String preview) {
        Approvals approvals = web.klave.hooks().approvals();
        return approvals.hold(actor(), Optional.empty(), new ClusterId("prod-1"), "team-a", tool, verb, resource, name,
                "arguments-" + CALLS.incrementAndGet(), call, preview).id();
    }

    /** The bot asks for view in team-a for 30 minutes. */
    String requestAccess() {
        return web.klave.hooks().accessRequests().request(actor(), Optional.empty(),
                new ClusterId("prod-1"), new Scope("team-a"), Tier.VIEW, 30, "revisar los pods que fallan").id();
    }
}
