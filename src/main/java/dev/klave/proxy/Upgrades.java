package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.BootstrapSecrets;
import dev.klave.cluster.ClusterEndpoints;
import dev.klave.cluster.ClusterId;
import dev.klave.kube.Query;
import dev.klave.messages.Text;
import dev.klave.recording.RecordingPolicy;
import dev.klave.recording.Recordings;
import java.util.List;
import dev.klave.gateway.OpenCall;
import dev.klave.http.KubeStatus;
import dev.klave.logs.LogFields;
import dev.klave.messages.Message;
import dev.klave.messages.Untrusted;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.ConnectOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.SSLEngineOptions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upgraded connections (exec, attach, port-forward): Klave writes the request head to the cluster
 * itself over a raw TLS socket pinned to the cluster's CA, reads the answer's head, and — on 101 —
 * takes the client's connection over and splices the two byte for byte until either side closes.
 */
final class Upgrades {
    private static final Logger LOG = LoggerFactory.getLogger(Upgrades.class);

    private final ClusterEndpoints endpoints;
    private final Recordings recordings;
    /** The raw TLS client of a cluster's, for upgraded connections. */
    private final ClusterEndpoints.Kind<NetClient> clients;

    /**
     * @param tls the TLS engine towards clusters. OpenSSL here carries exec streams at nginx's
     *     speed where the JDK's TLS reached 63-90 % of it (bench/RESULTS.md); streams that the
     *     cluster closed first arrived short with it until the relay stopped pausing sockets
     *     ({@link Relays#bytes}).
     */
    Upgrades(Vertx vertx, SSLEngineOptions tls, ClusterEndpoints endpoints, Recordings recordings) {
        requireNonNull(vertx, "vertx is null");
        this.recordings = requireNonNull(recordings, "recordings is null");
        requireNonNull(tls, "tls is null");
        this.endpoints = requireNonNull(endpoints, "endpoints is null");
        this.clients = new ClusterEndpoints.Kind<>("upgrades", secrets -> vertx.createNetClient(new NetClientOptions()
                .setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(secrets.caPem())))
                .setHostnameVerificationAlgorithm("HTTPS")
                .setConnectTimeout(Upstreams.CONNECT_TIMEOUT_MILLIS)
                .setSslEngineOptions(tls.copy())), NetClient::close);
    }

    /**
     * An upgraded connection (WebSocket exec, attach, port-forward): the cluster's 101 and its
     * headers go back to the client, then bytes flow both ways until either side closes. Any
     * other answer is returned as it is and the connection closed, never reused.
     */
    void serve(HttpServerRequest request, OpenCall open) {
        HttpServerResponse response = request.response();
        String auditId = open.auditId();
        ClusterId cluster = open.call().cluster();
        // Registered before the head leaves: a cut before the cluster's 101 refuses the upgrade;
        // after it, ends both connections (the row keeps the 101 and says why).
        AtomicReference<Runnable> closing = new AtomicReference<>(() -> request.connection().close());
        AtomicBoolean spliced = new AtomicBoolean();
        Context context = Vertx.currentContext();
        open.register(reason -> context.runOnContext(ignored -> {
            if (spliced.get()) {
                open.end(101, reason);
            } else {
                Message refused = reason.refusal();
                open.end(refused.status(), Optional.of(refused.text()));
                if (!response.ended() && !response.closed()) {
                    KubeStatus.send(response, refused);
                }
            }
            closing.get().run();
        }));
        // Issue 42: an exec or attach on a cluster that requires recording is refused when it cannot
        // be recorded (the writer too far behind), before the cluster sees it.
        Optional<Recordings.Session> session = session(open, request.getHeader(HttpHeaders.UPGRADE));
        RecordingPolicy policy = session.map(ignored -> recordings.policy(cluster)).orElse(RecordingPolicy.OFF);
        if (policy == RecordingPolicy.REQUIRED && !recordings.accepting()) {
            Message refused = Message.RECORDING_REQUIRED_UNAVAILABLE;
            open.end(refused.status(), Optional.of(refused.text()));
            KubeStatus.send(response, refused);
            return;
        }
        MultiMap headers = ForwardedHeaders.of(request.headers(), open.impersonation());
        headers.set(HttpHeaders.CONNECTION, "Upgrade");
        headers.set(HttpHeaders.UPGRADE, request.getHeader(HttpHeaders.UPGRADE));
        open(cluster, open.cluster(), request.method().name(), open.target(), headers)
                .onFailure(failure -> {
                    Message message = UpstreamFailures.classify(failure);
                    LOG.atWarn().addKeyValue(LogFields.AUDIT_ID, auditId)
                            .log("upgrade {} to cluster {} failed: {}", auditId, cluster,
                            Untrusted.text(failure.toString()));
                    open.end(message.status(), Optional.of(message.text()));
                    KubeStatus.send(response, message);
                })
                .onSuccess(answer -> {
                    if (open.ended()) {
                        // Cut while the cluster answered: nothing goes back.
                        answer.socket().close();
                        return;
                    }
                    if (answer.status() != 101) {
                        open.end(answer.status(), Optional.empty());
                        response.setStatusCode(answer.status());
                        answer.headers().forEach((name, value) -> {
                            if (!Relays.dropped(name)
                                    && !name.equalsIgnoreCase("content-length")) {
                                response.headers().add(name, value);
                            }
                        });
                        response.putHeader(HttpHeaders.CONNECTION, "close");
                        // Never reused: the client's connection asked for an upgrade that did not happen.
                        response.end(answer.rest()).onComplete(ignored -> request.connection().close());
                        answer.socket().close();
                        return;
                    }
                    // The cluster's 101 head goes back as it came (Upgrade, Connection,
                    // Sec-WebSocket-*, X-Stream-Protocol-Version), written on the raw connection:
                    // one path for WebSocket (GET) and SPDY/3.1 (POST) alike.
                    StringBuilder head = new StringBuilder(answer.statusLine()).append("\r\n");
                    answer.headers().forEach((name, value) -> {
                        String lower = name.toLowerCase(Locale.ROOT);
                        if (!lower.equals("set-cookie") && !lower.equals("audit-id")) {
                            head.append(name).append(": ").append(value).append("\r\n");
                        }
                    });
                    head.append("Audit-ID: ").append(auditId).append("\r\n\r\n");
                    RawConnection.takeOver(request).onFailure(failure -> {
                        LOG.atWarn().addKeyValue(LogFields.AUDIT_ID, auditId)
                                .log("upgrade {}: cannot take the client connection over: {}", auditId, failure.toString());
                        open.end(502, Optional.of(Message.UPSTREAM_CONNECTION.text()));
                        answer.socket().close();
                    }).onSuccess(client -> {
                        client.write(Buffer.buffer(head.toString().getBytes(StandardCharsets.ISO_8859_1)));
                        closing.set(() -> {
                            client.close();
                            answer.socket().close();
                        });
                        spliced.set(true);
                        splice(client, answer, open, session, policy, context);
                    });
                });
    }

    private void splice(NetSocket client, Answer answer, OpenCall open, Optional<Recordings.Session> session,
            RecordingPolicy policy, Context context) {
        NetSocket cluster = answer.socket();
        Runnable finished = () -> {
            open.end(101, Optional.empty());
            client.close();
            cluster.close();
        };
        // Under "required", a recording that fails ends the session: kubectl reads why on its error
        // channel (v4/v5.channel.k8s.io, channel 3, a Status), then both connections close.
        String protocol = Optional.ofNullable(answer.headers().get("Sec-WebSocket-Protocol")).orElse("");
        boolean channels = protocol.startsWith("v4.channel.k8s.io") || protocol.startsWith("v5.channel.k8s.io");
        Runnable failed = () -> context.runOnContext(ignored -> {
            String why = Text.RECORDING_SESSION_ENDED.text();
            open.end(101, Optional.of(why));
            Future<Void> written = channels ? client.write(errorFrame(why)) : Future.succeededFuture();
            written.onComplete(done -> {
                client.close();
                cluster.close();
            });
        });
        Recordings.Tap tap = session.map(found -> recordings.start(found, policy, failed)).orElse(null);
        if (answer.rest().length() > 0) {
            client.write(answer.rest());
            if (tap != null) {
                tap.fromCluster(answer.rest().getBytes());
            }
        }
        if (tap == null) {
            Relays.bytes(client, cluster, finished);
            Relays.bytes(cluster, client, finished);
            return;
        }
        Runnable ended = () -> tap.end(Optional.empty()).thenAccept(unrecorded -> context.runOnContext(ignored -> {
            // "on": a session whose recording failed went on; its audit row says so (issue 42).
            unrecorded.ifPresent(why -> open.end(101, Optional.of(Text.RECORDING_NOT_WHOLE.text(why))));
            finished.run();
        }));
        // The copy for the recorder only while it records: past its cap the relay is a plain relay.
        Relays.bytes(client, cluster, ended, bytes -> {
            if (tap.wanted()) {
                tap.fromClient(bytes.getBytes());
            }
        });
        Relays.bytes(cluster, client, ended, bytes -> {
            if (tap.wanted()) {
                tap.fromCluster(bytes.getBytes());
            }
        });
    }

    /**
     * What ends a session for kubectl: a message on its error channel (3) with a failure Status
     * saying {@code why}, then the WebSocket's normal close (1000, RFC 6455 §7.4.1) — so kubectl
     * prints why instead of an unexpected end.
     */
    static Buffer errorFrame(String why) {
        com.fasterxml.jackson.databind.node.ObjectNode status = new com.fasterxml.jackson.databind.ObjectMapper()
                .createObjectNode();
        status.put("kind", "Status").put("apiVersion", "v1").put("status", "Failure").put("message", why)
                .put("reason", "InternalError");
        status.putObject("metadata");
        byte[] json = status.toString().getBytes(StandardCharsets.UTF_8);
        Buffer frame = Buffer.buffer().appendByte((byte) 0x82);
        int length = json.length + 1;
        if (length < 126) {
            frame.appendByte((byte) length);
        } else {
            frame.appendByte((byte) 126).appendShort((short) length);
        }
        frame.appendByte((byte) 3).appendBytes(json);
        // A normal close (1000): kubectl then reads the error stream it holds and prints its message.
        return frame.appendByte((byte) 0x88).appendByte((byte) 2).appendShort((short) 1000);
    }

    /**
     * The session to record when the call is an exec or attach of a pod (issue 42):
     * {@code api/v1/namespaces/<ns>/pods/<pod>/exec|attach}; port-forward is never recorded.
     */
    static Optional<Recordings.Session> session(OpenCall open, String upgrade) {
        List<String> path = open.call().path().segments();
        if (path.size() != 7 || !path.get(0).equals("api") || !path.get(1).equals("v1")
                || !path.get(2).equals("namespaces") || !path.get(4).equals("pods")
                || !(path.get(6).equals("exec") || path.get(6).equals("attach"))) {
            return Optional.empty();
        }
        Query query = open.call().query();
        String command = path.get(6).equals("attach") ? "attach" : String.join(" ", query.all("command"));
        boolean tty = query.first("tty").map("true"::equalsIgnoreCase).orElse(false);
        boolean websocket = upgrade != null && upgrade.equalsIgnoreCase("websocket");
        return Optional.of(new Recordings.Session(open.auditId(), open.caller().subject().id(),
                open.caller().subject().login().value(), open.call().cluster(), path.get(3), path.get(5),
                query.first("container"), command, tty, websocket));
    }

    /**
     * The cluster's answer: for a 101 its head and the bytes that came after it on the same
     * socket; for any other status its head and whole body ({@link UpgradeAnswers}).
     */
    record Answer(NetSocket socket, int status, String statusLine, MultiMap headers, Buffer rest) {}

    private Future<Answer> open(ClusterId cluster, BootstrapSecrets secrets, String method, String uri, MultiMap headers) {
        URI server = secrets.server();
        int port = server.getPort() == -1 ? 443 : server.getPort();
        NetClient client = endpoints.client(clients, cluster, "", secrets);
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
