package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A Kubernetes API server for tests: HTTPS with its own CA, bearer tokens, impersonation and RBAC,
 * discovery, CRUD, watch, server-side apply, logs, exec and port-forward. See package-info for
 * what it is faithful to and how it is built.
 *
 * <pre>{@code
 * try (ClusterSimulator cluster = ClusterSimulator.builder().start()) {
 *     cluster.url(); cluster.caCertificatePem(); cluster.proxyToken();
 * }
 * }</pre>
 */
public final class ClusterSimulator implements AutoCloseable {
    public static final String PROXY_USER = "system:serviceaccount:klave-system:klave-proxy";
    public static final String RECONCILER_USER = "system:serviceaccount:klave-system:klave-reconciler";
    public static final String ADMIN_USER = "kubernetes-admin";
    static final List<String> INITIAL_NAMESPACES = List.of("default", "kube-system", "kube-public", "kube-node-lease", "klave-system");

    private final CertificateAuthority authority;
    private final SimulatorHttpServer server;
    private final ObjectStore store;
    private final Authenticator authenticator;
    private final RequestLog requestLog;
    private final HeaderGuard guard;
    private final Faults faults;
    private final PodRuntime pods;
    private final SecureRandom random;
    private final String proxyToken;
    private final String reconcilerToken;
    private final String adminToken;

    private ClusterSimulator(Builder builder) {
        this.random = new SecureRandom();
        this.authority = CertificateAuthority.generate("kubernetes", random);
        ServerIdentity identity = authority.issueServerCertificate(List.of("localhost", "kubernetes", "kubernetes.default"),
                List.of("127.0.0.1"));
        ServerIdentity foreign = CertificateAuthority.generate("kubernetes", random)
                .issueServerCertificate(List.of("localhost"), List.of("127.0.0.1"));
        this.store = new ObjectStore(builder.clock);
        this.authenticator = new Authenticator();
        this.requestLog = new RequestLog();
        this.pods = new PodRuntime(store);
        this.proxyToken = newToken();
        this.reconcilerToken = newToken();
        this.adminToken = newToken();
        this.guard = new HeaderGuard(proxyToken, reconcilerToken);
        issue(proxyToken, UserInfo.serviceAccount("klave-system", "klave-proxy"));
        issue(reconcilerToken, UserInfo.serviceAccount("klave-system", "klave-reconciler"));
        issue(adminToken, UserInfo.of(ADMIN_USER, List.of("system:masters", "system:authenticated")));
        builder.tokens.forEach(this::issue);
        seed(builder.manifests);
        RbacAuthorizer authorizer = new RbacAuthorizer(store);
        WatchStreamer watches = new WatchStreamer(store);
        this.server = new SimulatorHttpServer(identity.sslContext());
        this.faults = new Faults(server, identity, foreign);
        Map<String, ApiServer.SubresourceHandler> subresources = new HashMap<>();
        SubresourceHandlers.register(subresources, store, pods, faults);
        ApiServer api = new ApiServer(authenticator, authorizer, new Discovery("127.0.0.1"),
                new ResourceHandler(store, watches, new RbacEscalation(authorizer, store)), subresources, new NodeProxyHandler(pods, faults), requestLog,
                guard, faults);
        server.handler(api);
    }

    public static Builder builder() {
        return new Builder();
    }

    private ClusterSimulator startServer() {
        server.start();
        return this;
    }

    /** {@code https://127.0.0.1:<port>}. */
    public String url() {
        return "https://127.0.0.1:" + server.port();
    }

    public int port() {
        return server.port();
    }

    /** The PEM of the simulator's own CA, which signed the serving certificate. */
    public String caCertificatePem() {
        return authority.certificatePem();
    }

    /** Bearer token of {@value #PROXY_USER}. */
    public String proxyToken() {
        return proxyToken;
    }

    /** Bearer token of {@value #RECONCILER_USER}. */
    public String reconcilerToken() {
        return reconcilerToken;
    }

    /** Bearer token of {@value #ADMIN_USER}, in group system:masters. */
    public String adminToken() {
        return adminToken;
    }

    /** Registers a new bearer token for a user and returns it. */
    public String tokenFor(String user, String... groups) {
        requireNonNull(user, "user is null");
        List<String> all = new ArrayList<>(List.of(groups));
        if (!all.contains("system:authenticated")) {
            all.add("system:authenticated");
        }
        String token = newToken();
        issue(token, UserInfo.of(user, all));
        return token;
    }

    private void issue(String token, UserInfo user) {
        authenticator.add(token, user);
        guard.issued(token);
    }

    public void revokeToken(String token) {
        authenticator.revoke(token);
    }

    public SimulatorObjects objects() {
        return new SimulatorObjects(store);
    }

    /** Every request received so far (the latest 10,000), oldest first. */
    public List<RecordedRequest> requests() {
        return requestLog.all();
    }

    public void clearRequests() {
        requestLog.clear();
    }

    /**
     * Headers that reached this cluster and must never come through Klave (see {@link HeaderGuard}):
     * a client's token or cookie, origin or request-header authentication headers, impersonation
     * other than Klave's own. {@link #close()} fails with them, so every test is guarded.
     */
    public List<HeaderViolation> headerViolations() {
        return guard.violations();
    }

    /** The violations so far, forgotten: for a test that sends a forbidden header on purpose and checks it. */
    public List<HeaderViolation> takeHeaderViolations() {
        return guard.take();
    }

    /** Adds a line to a container's log; {@code kubectl logs -f} followers receive it at once. */
    public void appendLog(String namespace, String pod, String container, String line) {
        pods().appendLog(namespace, pod, container, line);
    }

    /** The simulated kubelet: logs and container restarts. */
    public SimulatorPods pods() {
        return new SimulatorPods(pods);
    }

    /** Open watch streams, for tests that check clients close theirs. */
    public int openWatches() {
        return store.watchCount();
    }

    public int openConnections() {
        return server.openConnections();
    }

    /**
     * Requests whose head has arrived and whose body is still coming: each holds its connection,
     * which an open connection alone does not show (it may be idle, or still in its handshake).
     */
    public int requestsReceiving() {
        return server.requestsReceiving();
    }

    /**
     * Every request whose head has arrived (the latest 10,000), oldest first, its body read or
     * not: for a test that must know its request reached the cluster before it sends the rest.
     */
    public List<RecordedRequest> headsArrived() {
        return server.heads();
    }

    /** Accepts connections and never answers them, not even the TLS handshake, until {@link #healthy()}. */
    public void silent() {
        faults.silent();
    }

    /** Refuses connections (the port is closed) until {@link #healthy()}. */
    public void down() {
        faults.down();
    }

    /** Delays every answer by the given time until {@link #healthy()}. */
    public void slow(Duration delay) {
        faults.slow(delay);
    }

    /** Serves a certificate signed by another CA until {@link #healthy()}. */
    public void wrongCertificate() {
        faults.wrongCertificate();
    }

    /**
     * Answers as an API server of Kubernetes 1.26 without its feature gate: /version says
     * v1.26.0 and aggregated discovery is not served (the legacy documents answer instead).
     */
    public void olderServer(boolean older) {
        faults.olderServer(older);
    }

    /** Whether the resource metrics API (metrics.k8s.io, metrics-server's) is served; it is unless told. */
    /**
     * A server that answers an exec's or attach's WebSocket upgrade with these headers in its 101
     * (say, a subprotocol nobody offered, or a compression extension), whatever the client offered;
     * an empty map undoes it.
     */
    public void sessionAnswer(Map<String, String> headers) {
        faults.sessionAnswer(headers);
    }

    public void metricsApi(boolean installed) {
        faults.metricsApi(installed);
    }

    public void healthy() {
        faults.healthy();
    }

    /** A kubeconfig for kubectl: this server, its CA inline, and the given bearer token. */
    public String kubeconfig(String token) {
        String ca = Base64.getEncoder().encodeToString(caCertificatePem().getBytes(StandardCharsets.US_ASCII));
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: simulator
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: user
                  user:
                    token: %s
                contexts:
                - name: simulator
                  context:
                    cluster: simulator
                    user: user
                    namespace: default
                current-context: simulator
                """.formatted(url(), ca, token);
    }

    /**
     * Stops the server, then fails with an {@link AssertionError} listing every forbidden header that
     * reached it ({@link #headerViolations()}); once, so a second close does not fail again.
     */
    @Override
    public void close() {
        server.close();
        store.closeWatches();
        pods.close();
        List<HeaderViolation> violations = guard.take();
        if (!violations.isEmpty()) {
            StringBuilder message = new StringBuilder(violations.size() + " forbidden header(s) reached the cluster:");
            violations.forEach(violation -> message.append("\n  ").append(violation));
            throw new AssertionError(message.toString());
        }
    }

    private void seed(List<String> manifests) {
        SimulatorObjects objects = objects();
        for (String namespace : INITIAL_NAMESPACES) {
            objects.put("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + namespace + "\"}}");
        }
        BuiltInRoles.clusterRoles().forEach(objects::put);
        BuiltInRoles.clusterRoleBindings().forEach(objects::put);
        manifests.forEach(objects::put);
    }

    private String newToken() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Options before start: a clock, extra tokens, objects to seed. */
    public static final class Builder {
        private Clock clock = Clock.systemUTC();
        private final Map<String, UserInfo> tokens = new HashMap<>();
        private final List<String> manifests = new ArrayList<>();

        private Builder() {
        }

        public Builder clock(Clock clock) {
            this.clock = requireNonNull(clock, "clock is null");
            return this;
        }

        /** A fixed bearer token for a user (system:authenticated is added). */
        public Builder token(String token, String user, String... groups) {
            requireNonNull(token, "token is null");
            requireNonNull(user, "user is null");
            List<String> all = new ArrayList<>(List.of(groups));
            all.add("system:authenticated");
            tokens.put(token, UserInfo.of(user, all));
            return this;
        }

        /** An object (JSON or YAML) stored before the server starts, e.g. a RoleBinding. */
        public Builder object(String manifest) {
            manifests.add(requireNonNull(manifest, "manifest is null"));
            return this;
        }

        public ClusterSimulator start() {
            return new ClusterSimulator(this).startServer();
        }
    }
}
