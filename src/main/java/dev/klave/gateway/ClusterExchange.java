package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.AuditIds;
import dev.klave.cluster.ClusterCallFailed;
import dev.klave.cluster.ClusterEndpoints;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.KubernetesApi;
import dev.klave.logs.LogFields;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Untrusted;
import dev.klave.outbound.Answer;
import dev.klave.outbound.OutboundFailure;
import dev.klave.outbound.OutboundHttp;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls to clusters for callers inside Klave (an agent's tools, spec 3 §4), under exactly the
 * proxy's rules: the same admission and audit row before anything is sent ({@link Gateway}), the
 * proxy token and the caller's impersonation — never the reconciler's identity — over TLS pinned
 * to the cluster's CA, and the call held open among the replica's calls, so that a revocation,
 * the owner's disable or shutdown cuts it. Spec 3 §8: 30 s per call and answers over 8 MiB
 * discarded. Blocking: call it from a virtual thread.
 */
public final class ClusterExchange {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterExchange.class);
    public static final Duration DEADLINE = Duration.ofSeconds(30);
    public static final long ANSWER_LIMIT = 8L * 1024 * 1024;

    private final Gateway gateway;
    private final CallChain chain;
    private final ClusterEndpoints endpoints;
    private final AuditIds ids;
    private final long answerLimit;
    /** This exchange's client of a cluster: trusting its CA, with this exchange's deadline and limit. */
    private final ClusterEndpoints.Kind<OutboundHttp> clients;

    /** What to send besides the call itself: a body and its type, and the type of answer wanted. */
    public record Outgoing(Optional<byte[]> body, Optional<String> contentType, String accept,
            Optional<String> ifNoneMatch) {
        public static final Outgoing NONE = new Outgoing(Optional.empty(), Optional.empty(), "application/json");

        public Outgoing {
            requireNonNull(body, "body is null");
            requireNonNull(contentType, "contentType is null");
            requireNonNull(accept, "accept is null");
            requireNonNull(ifNoneMatch, "ifNoneMatch is null");
        }

        public Outgoing(Optional<byte[]> body, Optional<String> contentType, String accept) {
            this(body, contentType, accept, Optional.empty());
        }

        /** A GET answered 304 when the cluster's document still has this entity tag (RFC 9110 §13.1.2). */
        public static Outgoing ifNoneMatch(String accept, String etag) {
            return new Outgoing(Optional.empty(), Optional.empty(), accept, Optional.of(etag));
        }

        public static Outgoing json(byte[] body, String contentType) {
            return new Outgoing(Optional.of(body), Optional.of(contentType), "application/json");
        }
    }

    public ClusterExchange(Gateway gateway, CallChain chain, ClusterEndpoints endpoints, Clock clock) {
        this(gateway, chain, endpoints, clock, DEADLINE, ANSWER_LIMIT);
    }

    ClusterExchange(Gateway gateway, CallChain chain, ClusterEndpoints endpoints, Clock clock, Duration deadline,
            long answerLimit) {
        this.gateway = requireNonNull(gateway, "gateway is null");
        this.chain = requireNonNull(chain, "chain is null");
        this.endpoints = requireNonNull(endpoints, "endpoints is null");
        this.ids = new AuditIds(clock);
        requireNonNull(deadline, "deadline is null");
        this.answerLimit = answerLimit;
        this.clients = new ClusterEndpoints.Kind<>("tools", secrets -> OutboundHttp.over(
                KubernetesApi.pinnedTo(secrets.caCertificates()), deadline, answerLimit), http -> { });
    }

    /**
     * Admits the call as {@code bearer} (resolved at its edge), sends it and reads the whole answer,
     * through the {@link CallChain}. Never throws for what the cluster or the caller did: each
     * outcome is an {@link Exchanged}, and its audit row is complete when this returns.
     */
    public Exchanged exchange(Bearer bearer, Call call, Outgoing outgoing) {
        Ending ending = gateway.ending(ids.next());
        Sending sending = new Sending(ending.auditId(), outgoing, Thread.currentThread());
        chain.runHere(ending, bearer, call, sending);
        return sending.exchanged.orElseThrow(() -> new IllegalStateException("the chain ended without an outcome"));
    }

    /** Holds a wait of {@code bearer}'s on {@code cluster} among the open calls ({@link CallChain#hold}). */
    public CallChain.Held hold(Bearer bearer, ClusterId cluster) {
        return chain.hold(bearer, cluster);
    }

    /**
     * The tools' transport: the JDK's client, pinned to the cluster's CA, on the calling thread, the
     * whole answer read; a cut interrupts the thread that sends.
     */
    private final class Sending implements Transport {
        private final String auditId;
        private final Outgoing outgoing;
        private final Thread thread;
        private final AtomicReference<CutReason> cut = new AtomicReference<>();
        private Optional<Exchanged> exchanged = Optional.empty();

        Sending(String auditId, Outgoing outgoing, Thread thread) {
            this.auditId = auditId;
            this.outgoing = outgoing;
            this.thread = thread;
        }

        @Override
        public void refused(Refusal refusal) {
            exchanged = Optional.of(new Exchanged.Refused(auditId, refusal));
        }

        @Override
        public void cut(CutReason reason, Carried call) {
            cut.set(reason);
            thread.interrupt();
        }

        @Override
        public void send(Wire wire, Carried call) {
            exchanged = Optional.of(carry(wire, call));
        }

        private Exchanged carry(Wire wire, Carried call) {
            Answer answer;
            try {
                if (cut.get() != null) {
                    call.answered();
                    return cutShort(call, cut.get());
                }
                answer = endpoints.client(clients, call.call().cluster(), "", call.cluster()).send(request(wire));
            } catch (OutboundFailure failure) {
                call.answered();
                if (cut.get() != null) {
                    return cutShort(call, cut.get());
                }
                return failed(call, failure);
            } catch (RuntimeException e) {
                // Not a failure the client reports (a defect): the call still ends, its row with it.
                call.answered();
                LOG.atError().addKeyValue(LogFields.AUDIT_ID, auditId).setCause(e).log("call {} to cluster {} failed",
                        auditId, call.call().cluster());
                call.end(Message.UPSTREAM_CONNECTION.status(), Optional.of(Message.UPSTREAM_CONNECTION.text()));
                return new Exchanged.Failed(auditId, Message.UPSTREAM_CONNECTION, Message.UPSTREAM_CONNECTION.text());
            }
            call.answered();
            if (cut.get() != null) {
                return cutShort(call, cut.get());
            }
            call.end(answer.status(), Optional.empty());
            return new Exchanged.Answered(auditId, answer.status(), answer.headers(), answer.body());
        }

        /** The request as the wire says, with what the tool sends besides. */
        private HttpRequest request(Wire wire) {
            HttpRequest.Builder request = HttpRequest.newBuilder(wire.uri())
                    .method(wire.method().name(), outgoing.body().map(HttpRequest.BodyPublishers::ofByteArray)
                            .orElse(HttpRequest.BodyPublishers.noBody()))
                    .header("Accept", outgoing.accept())
                    .header("User-Agent", "klave");
            outgoing.contentType().ifPresent(type -> request.header("Content-Type", type));
            outgoing.ifNoneMatch().ifPresent(tag -> request.header("If-None-Match", tag));
            for (Map.Entry<String, String> header : wire.impersonation()) {
                request.header(header.getKey(), header.getValue());
            }
            return request.build();
        }
    }

    /** Cut before its answer was whole: refused as the proxy refuses a request cut in flight. */
    private static Exchanged cutShort(Carried call, CutReason reason) {
        // The interrupt was ours, and is spent.
        Thread.interrupted();
        Message refused = reason.refusal();
        call.end(refused.status(), Optional.of(reason == CutReason.SHUTDOWN ? reason.text() : refused.text()));
        return new Exchanged.Refused(call.auditId(), refused.refusal());
    }

    private Exchanged failed(Carried open, OutboundFailure failure) {
        String auditId = open.auditId();
        LOG.atWarn().addKeyValue(LogFields.AUDIT_ID, auditId).log("call {} to cluster {} failed: {}", auditId,
                open.call().cluster(), Untrusted.text(failure.toString()));
        if (failure.kind() == OutboundFailure.Kind.TOO_LARGE) {
            String text = Message.AUDIT_ANSWER_TOO_LARGE.text(size(answerLimit));
            open.end(Message.AUDIT_ANSWER_TOO_LARGE.status(), Optional.of(text));
            return new Exchanged.Failed(auditId, Message.AUDIT_ANSWER_TOO_LARGE, text);
        }
        Message message = failure.kind() == OutboundFailure.Kind.DEADLINE ? Message.UPSTREAM_TIMEOUT
                : ClusterCallFailed.Kind.of(failure).message();
        open.end(message.status(), Optional.of(message.text()));
        return new Exchanged.Failed(auditId, message, message.text());
    }

    private static String size(long bytes) {
        if (bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + " MiB";
        }
        return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
    }
}
