package dev.klave.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.simulator.Kubectl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

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
        TestingHttp http = klave.http();
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

    private static HttpResponse<String> expect(HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            throw new AssertionError("expected " + status + ", got " + response.statusCode() + ": " + response.body());
        }
        return response;
    }
}
