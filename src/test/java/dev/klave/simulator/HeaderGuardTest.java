package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The simulator's header guard catches every kind of header that must never reach a cluster
 * through Klave, sent here straight to the simulator, and lets what Klave does send pass.
 */
class HeaderGuardTest {
    private static final String PODS = "/api/v1/namespaces/default/pods";

    private ClusterSimulator cluster;
    private HttpClient client;

    @BeforeEach
    void start() {
        cluster = ClusterSimulator.builder().start();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .sslContext(SimulatorClient.trusting(cluster.caCertificatePem())).connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @AfterEach
    void stop() {
        cluster.takeHeaderViolations();
        cluster.close();
    }

    /** Sends GET {@code path} with exactly these headers (name, value, name, value…). */
    private int send(String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(cluster.url() + path))
                .timeout(Duration.ofSeconds(10));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** A case: the token sent (from the simulator), the other headers, and what the guard must say. */
    private record Case(String name, Function<ClusterSimulator, Optional<String>> authorization,
            Map<String, String> headers, String header, String why) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Function<ClusterSimulator, Optional<String>> proxy() {
        return cluster -> Optional.of("Bearer " + cluster.proxyToken());
    }

    static Stream<Arguments> forbidden() {
        return Stream.of(
                new Case("a client's klt_ token", cluster -> Optional.of("Bearer klt_abcdefghijklmnopqrstuvwxyz"),
                        Map.of(), "Authorization", "not a token this cluster issued"),
                new Case("a Basic header with a token's value", cluster -> Optional.of("Basic " + cluster.proxyToken()),
                        Map.of(), "Authorization", "not a token this cluster issued"),
                new Case("a cookie", proxy(), Map.of("Cookie", "service_session=abc"), "Cookie",
                        "a client's cookie sent on"),
                new Case("X-Forwarded-For", proxy(), Map.of("X-Forwarded-For", "10.0.0.1"), "x-forwarded-for",
                        "a client-controlled origin header"),
                new Case("X-Forwarded-Host", proxy(), Map.of("X-Forwarded-Host", "evil"), "x-forwarded-host",
                        "a client-controlled origin header"),
                new Case("Forwarded", proxy(), Map.of("Forwarded", "for=10.0.0.1"), "forwarded",
                        "a client-controlled origin header"),
                new Case("X-Real-Ip", proxy(), Map.of("X-Real-Ip", "10.0.0.1"), "x-real-ip",
                        "a client-controlled origin header"),
                new Case("X-Remote-User", proxy(), Map.of("X-Remote-User", "system:admin"), "x-remote-user",
                        "request-header authentication"),
                new Case("X-Remote-Group", proxy(), Map.of("X-Remote-Group", "system:masters"), "x-remote-group",
                        "request-header authentication"),
                new Case("impersonation with the reconciler's token",
                        cluster -> Optional.of("Bearer " + cluster.reconcilerToken()),
                        Map.of("Impersonate-User", "user:ana"), "impersonate-user",
                        "impersonation with the reconciler's token"),
                new Case("a client's Impersonate-Extra-*", proxy(),
                        Map.of("Impersonate-User", "user:ana", "Impersonate-Extra-Scopes", "all"),
                        "impersonate-extra-scopes", "an impersonation header Klave never sets"),
                new Case("a bare user name", proxy(), Map.of("Impersonate-User", "ana"), "impersonate-user",
                        "not user:<login> or bot:<login> (got 'ana')"),
                new Case("a system user", proxy(), Map.of("Impersonate-User", "system:admin"), "impersonate-user",
                        "not user:<login> or bot:<login> (got 'system:admin')"),
                new Case("a service account", proxy(),
                        Map.of("Impersonate-User", "system:serviceaccount:kube-system:default"), "impersonate-user",
                        "not user:<login> or bot:<login>"),
                new Case("the proxy's token acting as itself", proxy(), Map.of(), "Authorization",
                        "the proxy's token without impersonating anyone"),
                new Case("the proxy's token with groups but no user", proxy(),
                        Map.of("Impersonate-Group", "service:view:*"), "Authorization",
                        "the proxy's token without impersonating anyone"),
                new Case("a login with capitals", proxy(), Map.of("Impersonate-User", "user:Ana"), "impersonate-user",
                        "not user:<login> or bot:<login> (got 'user:Ana')"))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forbidden")
    void everyForbiddenHeaderIsRecordedWithItsRequest(Case forbidden) throws Exception {
        List<String> headers = new java.util.ArrayList<>();
        forbidden.authorization().apply(cluster).ifPresent(value -> headers.addAll(List.of("Authorization", value)));
        forbidden.headers().forEach((name, value) -> headers.addAll(List.of(name, value)));

        send(PODS, headers.toArray(String[]::new));

        assertThat(cluster.headerViolations()).anySatisfy(violation -> {
            assertThat(violation.request()).isEqualTo("GET " + PODS);
            assertThat(violation.header()).isEqualToIgnoringCase(forbidden.header());
            assertThat(violation.why()).contains(forbidden.why());
        });
    }

    @Test
    void whatKlaveSendsPasses() throws Exception {
        send(PODS, "Authorization", "Bearer " + cluster.proxyToken(), "Impersonate-User", "user:ana",
                "Impersonate-Uid", "6f1c2a8e-3b7d-4c51-9a0e-2d8f4b6c1e93", "Impersonate-Group", "service:view:*");
        send(PODS, "Authorization", "Bearer " + cluster.proxyToken(), "Impersonate-User", "bot:deploy.bot-1",
                "Impersonate-Group", "service:edit:team-a");
        send("/apis/rbac.authorization.k8s.io/v1/clusterroles", "Authorization", "Bearer " + cluster.reconcilerToken());
        send("/api", "Authorization", "Bearer " + cluster.proxyToken());
        send(PODS, "Authorization", "Bearer " + cluster.adminToken());
        send(PODS, "Authorization", "Bearer " + cluster.tokenFor("user:eva"));
        send("/healthz");

        assertThat(cluster.headerViolations()).isEmpty();
    }

    @Test
    void aRevokedTokenIsTheClustersToRefuseNotALeak() throws Exception {
        String token = cluster.tokenFor("user:eva");
        cluster.revokeToken(token);

        assertThat(send(PODS, "Authorization", "Bearer " + token)).isEqualTo(401);
        assertThat(cluster.headerViolations()).isEmpty();
    }

    @Test
    void closingASimulatorThatSawAForbiddenHeaderFailsTheTestListingEachOne() throws Exception {
        ClusterSimulator other = ClusterSimulator.builder().start();
        HttpClient trusting = HttpClient.newBuilder().sslContext(SimulatorClient.trusting(other.caCertificatePem()))
                .version(HttpClient.Version.HTTP_1_1).build();
        trusting.send(HttpRequest.newBuilder(URI.create(other.url() + PODS)).header("Authorization", "Bearer klt_x")
                .header("X-Forwarded-For", "10.0.0.1").build(), HttpResponse.BodyHandlers.discarding());

        assertThatThrownBy(other::close).isInstanceOf(AssertionError.class)
                .hasMessageContaining("2 forbidden header(s) reached the cluster")
                .hasMessageContaining("GET " + PODS + ": Authorization — not a token this cluster issued")
                .hasMessageContaining("GET " + PODS + ": x-forwarded-for — a client-controlled origin header")
                .hasMessageNotContaining("klt_x");
        other.close();
    }

    @Test
    void takingTheViolationsForgetsThem() throws Exception {
        send(PODS, "Authorization", "Bearer " + cluster.proxyToken(), "Impersonate-User", "user:ana", "Cookie", "a=b");

        assertThat(cluster.takeHeaderViolations()).hasSize(1);
        assertThat(cluster.headerViolations()).isEmpty();
    }
}
