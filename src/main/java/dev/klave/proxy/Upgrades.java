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
    private final Map<Key, NetClient> clients = new ConcurrentHashMap<>();

    /** Like {@link Upstreams}' key: the cluster's own values, whose hashes are cached. */
    private record Key(ClusterId cluster, URI server, String caPem) {}

    Upgrades(Vertx vertx) {
        this.vertx = requireNonNull(vertx, "vertx is null");
    }

    /** The cluster's answer head, and the bytes that came after it on the same socket. */
    record Answer(NetSocket socket, int status, String statusLine, MultiMap headers, Buffer rest) {}

    Future<Answer> open(ClusterId cluster, BootstrapSecrets secrets, String method, String uri, MultiMap headers) {
        URI server = secrets.server();
        int port = server.getPort() == -1 ? 443 : server.getPort();
        NetClient client = clients.computeIfAbsent(new Key(cluster, server, secrets.caPem()),
                ignored -> vertx.createNetClient(new NetClientOptions()
                        .setSsl(true)
                        .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(secrets.caPem())))
                        .setHostnameVerificationAlgorithm("HTTPS")
                        .setConnectTimeout(Upstreams.CONNECT_TIMEOUT_MILLIS)));
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
            Buffer received = Buffer.buffer();
            socket.handler(chunk -> {
                if (answer.future().isComplete()) {
                    return;
                }
                received.appendBuffer(chunk);
                int end = indexOfHeadEnd(received);
                if (end >= 0) {
                    socket.pause();
                    socket.handler(null);
                    answer.complete(parse(socket, received, end));
                } else if (received.length() > 64 * 1024) {
                    answer.tryFail("answer head too large");
                    socket.close();
                }
            });
            socket.exceptionHandler(failure -> answer.tryFail(failure));
            socket.closeHandler(ignored -> answer.tryFail("the cluster closed the connection before answering"));
            socket.write(Buffer.buffer(head.toString().getBytes(StandardCharsets.ISO_8859_1)));
            return answer.future();
        });
    }

    private static int indexOfHeadEnd(Buffer buffer) {
        for (int i = 0; i + 3 < buffer.length(); i++) {
            if (buffer.getByte(i) == '\r' && buffer.getByte(i + 1) == '\n' && buffer.getByte(i + 2) == '\r'
                    && buffer.getByte(i + 3) == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static Answer parse(NetSocket socket, Buffer received, int end) {
        String[] lines = received.getString(0, end, "ISO-8859-1").split("\r\n");
        String statusLine = lines[0];
        String[] parts = statusLine.split(" ", 3);
        int status = parts.length > 1 ? Integer.parseInt(parts[1]) : 502;
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.add(lines[i].substring(0, colon).strip(), lines[i].substring(colon + 1).strip());
            }
        }
        return new Answer(socket, status, statusLine, headers, received.getBuffer(end + 4, received.length()));
    }
}
