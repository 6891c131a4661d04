package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.ClusterEndpoints;
import dev.klave.cluster.ClusterId;
import dev.klave.messages.Text;
import dev.klave.recording.Tap;
import dev.klave.gateway.Carried;
import dev.klave.gateway.CutReason;
import dev.klave.gateway.Wire;
import dev.klave.http.KubeStatus;
import dev.klave.logs.LogFields;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
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
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
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
    private final UpgradeRecording recording;
    /** The raw TLS client of a cluster's, for upgraded connections. */
    private final ClusterEndpoints.Kind<NetClient> clients;

    /**
     * @param tls the TLS engine towards clusters. OpenSSL here carries exec streams at nginx's
     *     speed where the JDK's TLS reached 63-90 % of it (bench/RESULTS.md); streams that the
     *     cluster closed first arrived short with it until the relay stopped pausing sockets
     *     ({@link Relays#bytes}).
     */
    Upgrades(Vertx vertx, SSLEngineOptions tls, ClusterEndpoints endpoints, UpgradeRecording recording) {
        requireNonNull(vertx, "vertx is null");
        this.recording = recording;
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
     * An upgraded connection (WebSocket exec, attach, port-forward): the head the {@link Wire} says
     * goes to the cluster, the cluster's 101 and its headers go back to the client, then bytes flow
     * both ways until either side closes. Any other answer is returned as it is and the connection
     * closed, never reused.
     *
     * @return what a cut of the stream guard does to it: before the cluster's 101 it refuses the
     *     upgrade; after it, ends both connections (the row keeps the 101 and says why)
     */
    Consumer<CutReason> serve(HttpServerRequest request, Wire wire, Carried open) {
        HttpServerResponse response = request.response();
        String auditId = open.auditId();
        ClusterId cluster = open.call().cluster();
        AtomicReference<Runnable> closing = new AtomicReference<>(() -> request.connection().close());
        AtomicBoolean spliced = new AtomicBoolean();
        Context context = Vertx.currentContext();
        Consumer<CutReason> cut = reason -> {
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
        };
        MultiMap headers = ForwardedHeaders.of(request.headers(), wire.impersonation());
        headers.set(HttpHeaders.CONNECTION, "Upgrade");
        headers.set(HttpHeaders.UPGRADE, request.getHeader(HttpHeaders.UPGRADE));
        // Issues 42 and 51: where recording is required, what cannot be recorded is refused before
        // the cluster sees it, and a session's offer narrowed to what the recorder reads.
        UpgradeRecording.Plan plan = recording.plan(open.call());
        Optional<Refusal> refused = recording.before(plan, open, headers);
        if (refused.isPresent()) {
            open.end(refused.get().status(), Optional.of(refused.get().getMessage()));
            refused.get().retryAfterSeconds().ifPresent(seconds -> response.putHeader("Retry-After", seconds));
            response.putHeader(HttpHeaders.CONNECTION, "close");
            KubeStatus.send(response, refused.get().status(), refused.get().getMessage());
            request.connection().close();
            return cut;
        }
        open(cluster, wire, headers)
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
                    // A recording may fail before the relay starts (its row not stored): told either
                    // way, and acted on as soon as the relay can end the session.
                    SessionEnd failing = new SessionEnd();
                    UpgradeRecording.Relay relay;
                    try {
                        relay = recording.after(plan, open, answer.headers(), failing::request);
                    } catch (Refusal refusal) {
                        // Required, and the recorder cannot read what the cluster chose: not a byte relayed.
                        answer.socket().close();
                        open.end(refusal.status(), Optional.of(refusal.getMessage()));
                        response.putHeader(HttpHeaders.CONNECTION, "close");
                        KubeStatus.send(response, refusal.status(), refusal.getMessage());
                        request.connection().close();
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
                        splice(client, answer, open, relay, failing, context);
                    });
                });
        return cut;
    }

    /**
     * Relays both directions. A recorded session's tap sees what is relayed; under {@code required},
     * the cluster's bytes stop at the cap (the tap says so) and a recording that fails ends the
     * session, its client reading why in the protocol it speaks.
     */
    private void splice(NetSocket client, Answer answer, Carried open, UpgradeRecording.Relay relay,
            SessionEnd failing, Context context) {
        NetSocket cluster = answer.socket();
        Runnable finished = () -> {
            open.end(101, Optional.empty());
            client.close();
            cluster.close();
        };
        Tap tap = relay.tap();
        AtomicBoolean ending = new AtomicBoolean();
        Runnable failed = () -> context.runOnContext(ignored -> {
            if (!ending.compareAndSet(false, true)) {
                return;
            }
            String why = Text.RECORDING_SESSION_ENDED.text();
            open.end(101, Optional.of(why));
            // Only after a whole message: written in the middle of one, it would be read as its rest.
            Future<Void> written = UpgradeRecording.ending(relay.protocol(), why).filter(frame -> tap.atMessageEnd())
                    .map(client::write).orElse(Future.succeededFuture());
            written.onComplete(done -> {
                client.close();
                cluster.close();
            });
        });
        failing.bind(failed);
        if (tap == Tap.NOTHING) {
            if (answer.rest().length() > 0) {
                client.write(answer.rest());
            }
            Relays.bytes(client, cluster, finished);
            Relays.bytes(cluster, client, finished);
            return;
        }
        Runnable ended = () -> tap.end(Optional.empty()).thenAccept(unrecorded -> context.runOnContext(ignored -> {
            // "on": a session whose recording failed went on; its audit row says so (issue 42).
            unrecorded.ifPresent(why -> open.end(101, Optional.of(Text.RECORDING_NOT_WHOLE.text(why))));
            finished.run();
        }));
        Relays.Gate fromCluster = bytes -> {
            if (ending.get()) {
                return 0;
            }
            if (!tap.wanted()) {
                return bytes.length();
            }
            int passed = tap.fromCluster(bytes.getBytes());
            if (passed < bytes.length()) {
                failed.run();
            }
            return passed;
        };
        if (answer.rest().length() > 0) {
            int passed = fromCluster.pass(answer.rest());
            if (passed > 0) {
                client.write(answer.rest().getBuffer(0, passed));
            }
        }
        // The copy for the recorder only while it records: past its cap the relay is a plain relay.
        Relays.bytes(client, cluster, ended, bytes -> {
            if (tap.wanted()) {
                tap.fromClient(bytes.getBytes());
            }
            return bytes.length();
        });
        Relays.bytes(cluster, client, ended, fromCluster);
    }

    /**
     * The cluster's answer: for a 101 its head and the bytes that came after it on the same
     * socket; for any other status its head and whole body ({@link UpgradeAnswers}).
     */
    record Answer(NetSocket socket, int status, String statusLine, MultiMap headers, Buffer rest) {}

    /** Connects to the cluster and writes the upgrade's head: the request line the {@link Wire} says. */
    private Future<Answer> open(ClusterId cluster, Wire wire, MultiMap headers) {
        String host = wire.uri().getHost();
        int port = wire.port();
        NetClient client = endpoints.client(clients, cluster, "", wire.cluster());
        return client.connect(new ConnectOptions().setHost(host).setPort(port).setSsl(true))
                .compose(socket -> {
            StringBuilder head = new StringBuilder(wire.method().name()).append(' ').append(wire.target())
                    .append(" HTTP/1.1\r\n").append("Host: ").append(host).append(':').append(port).append("\r\n");
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

    /**
     * The end of a session asked for by its recording, which may come before the relay that can
     * act on it exists: whichever comes second runs it (both may; the action runs its work once).
     */
    static final class SessionEnd {
        private final AtomicBoolean asked = new AtomicBoolean();
        private final AtomicReference<Runnable> action = new AtomicReference<>();

        void request() {
            asked.set(true);
            Runnable bound = action.get();
            if (bound != null) {
                bound.run();
            }
        }

        void bind(Runnable end) {
            action.set(end);
            if (asked.get()) {
                end.run();
            }
        }
    }
}
