package dev.klave.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.simulator.Kubectl;
import dev.klave.store.JdbiLeaseStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/** A cluster registered in Klave and bootstrapped the way an operator does it, against a simulator. */
public final class TestingClusters {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TestingClusters() {}

    /** The bootstrap JSON an operator pastes, for {@code cluster} with {@code ca}. */
    public static String tokensJson(ClusterSimulator cluster, String ca) {
        return JSON.createObjectNode()
                .put("server", cluster.url())
                .put("ca", ca)
                .put("proxyToken", cluster.proxyToken())
                .put("reconcilerToken", cluster.reconcilerToken())
                .toString();
    }

    /** Registers {@code id}, applies its bootstrap.yaml with kubectl as cluster-admin and pastes the JSON. */
    public static void bootstrap(TestingKlave klave, String adminCookie, ClusterSimulator cluster, String id) {
        bootstrap(klave.http(), adminCookie, cluster, id);
    }

    /** The same, through any Klave's API (a process of its own, say). */
    public static void bootstrap(TestingHttp http, String adminCookie, ClusterSimulator cluster, String id) {
        expect(http.send("POST", "/api/clusters", "{\"id\":\"" + id + "\",\"name\":\"Cluster " + id + "\"}",
                "Cookie", adminCookie), 201);
        HttpResponse<String> manifest = expect(http.send("GET", "/api/clusters/" + id + "/bootstrap.yaml", null,
                "Cookie", adminCookie), 200);
        try (Kubectl clusterAdmin = new Kubectl(cluster, cluster.adminToken())) {
            Path file = Files.createTempFile("bootstrap", ".yaml");
            Files.writeString(file, manifest.body());
            Kubectl.Result applied = clusterAdmin.run("apply", "-f", file.toString());
            if (applied.exitCode() != 0) {
                throw new AssertionError("kubectl apply of bootstrap.yaml failed: " + applied.output());
            }
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        expect(http.send("POST", "/api/clusters/" + id + "/tokens", tokensJson(cluster, cluster.caCertificatePem()),
                "Cookie", adminCookie), 200);
    }

    /**
     * Takes cluster {@code id}'s reconcile lease for {@code holder}, as another replica's running
     * pass would, once the passes {@code klave} runs in the background (every change asks for one)
     * have let it go. Taking it while one of those still talks to the cluster would fail, and a
     * test that went on regardless would race that pass.
     */
    public static void holdReconcileLease(TestingKlave klave, String id, String holder, Clock clock, Duration ttl) {
        JdbiLeaseStore leases = new JdbiLeaseStore(klave.klave().database());
        Eventually.until("the reconcile lease of " + id + " free for " + holder, Duration.ofSeconds(10),
                () -> leases.tryAcquire("reconcile/" + id, holder, clock.instant(), ttl));
    }

    private static HttpResponse<String> expect(HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            throw new AssertionError("expected " + status + ", got " + response.statusCode() + ": " + response.body());
        }
        return response;
    }
}
