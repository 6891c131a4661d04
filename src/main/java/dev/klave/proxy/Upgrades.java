package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.BootstrapSecrets;
import dev.klave.cluster.ClusterId;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.ConnectOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.SSLEngineOptions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Upgraded connections (exec, attach, port-forward): Klave writes the request head to the cluster
 * itself over a raw TLS socket pinned to the cluster's CA, reads the answer's head, and — on 101 —
 * splices the two connections byte for byte.
 */
final class Upgrades {
    private final Vertx vertx;
    private final SSLEngineOptions tls;
    private final Map<Key, NetClient> clients = new ConcurrentHashMap<>();

    /** Like {@link Upstreams}' key: the cluster's own values, whose hashes are cached. */
    private record Key(ClusterId cluster, URI server, String caPem) {}

    /**
     * @param tls the TLS engine towards clusters. OpenSSL here carries exec streams at nginx's
     *     speed where the JDK's TLS reached 63-90 % of it (bench/RESULTS.md); streams that the
     *     cluster closed first arrived short with it until the relay stopped pausing sockets
     *     ({@link Relays#bytes}).
     */
    Upgrades(Vertx vertx, SSLEngineOptions tls) {
        this.vertx = requireNonNull(vertx, "vertx is null");
        this.tls = requireNonNull(tls, "tls is null");
    }

    /**
     * The cluster's answer: for a 101 its head and the bytes that came after it on the same
     * socket; for any other status its head and whole body ({@link UpgradeAnswers}).
     */
    record Answer(NetSocket socket, int status, String statusLine, MultiMap headers, Buffer rest) {}

    Future<Answer> open(ClusterId cluster, BootstrapSecrets secrets, String method, String uri, MultiMap headers) {
        URI server = secrets.server();
        int port = server.getPort() == -1 ? 443 : server.getPort();
        NetClient client = clients.computeIfAbsent(new Key(cluster, server, secrets.caPem()),
                ignored -> vertx.createNetClient(new NetClientOptions()
                        .setSsl(true)
                        .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(secrets.caPem())))
                        .setHostnameVerificationAlgorithm("HTTPS")
                        .setConnectTimeout(Upstreams.CONNECT_TIMEOUT_MILLIS)
                        .setSslEngineOptions(tls.copy())));
        return client.connect(new ConnectOptions().setHost(server.getHost()).setPort(port).setSsl(true))
                .compose(socket -> {
            StringBuilder head = new StringBuilder(method).append(' ')
                    .append(server.getRawPath() == null ? "" : server.getRawPath()).append(uri).append(" HTTP/1.1\r\n")
                    .append("Host: ").append(server.getHost()).append(':').append(port).append("\r\n");
            for (Map.Entry<String, String> header : headers) {
                head.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
            }
            head.append("\r\n");
            Promise<Answer> answer = Promise.promise();
            UpgradeAnswers.read(socket, answer);
            socket.write(Buffer.buffer(head.toString().getBytes(StandardCharsets.ISO_8859_1)));
            return answer.future();
        });
    }
}
