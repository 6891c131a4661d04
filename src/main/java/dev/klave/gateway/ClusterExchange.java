package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.AuditIds;
import dev.klave.cluster.ClusterCallFailed;
import dev.klave.cluster.ClusterEndpoints;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.KubernetesApi;
import dev.klave.logs.LogFields;
import dev.klave.messages.Message;
import dev.klave.messages.Untrusted;
import dev.klave.outbound.Answer;
import dev.klave.outbound.OutboundFailure;
import dev.klave.outbound.OutboundHttp;
import java.net.URI;
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

    public ClusterExchange(Gateway gateway, ClusterEndpoints endpoints, Clock clock) {
        this(gateway, endpoints, clock, DEADLINE, ANSWER_LIMIT);
    }

    ClusterExchange(Gateway gateway, ClusterEndpoints endpoints, Clock clock, Duration deadline, long answerLimit) {
        this.gateway = requireNonNull(gateway, "gateway is null");
        this.endpoints = requireNonNull(endpoints, "endpoints is null");
        this.ids = new AuditIds(clock);
        requireNonNull(deadline, "deadline is null");
        this.answerLimit = answerLimit;
        this.clients = new ClusterEndpoints.Kind<>("tools", secrets -> OutboundHttp.over(
                KubernetesApi.pinnedTo(secrets.caCertificates()), deadline, answerLimit), http -> { });
    }

    /**
     * Admits the call as {@code bearer} (resolved at its edge), sends it and reads the whole answer.
     * Never throws for what the cluster or the caller did: each outcome is an {@link Exchanged},
     * and its audit row is complete when this returns.
     */
    public Exchanged exchange(Bearer bearer, Call call, Outgoing outgoing) {
        Ending ending = gateway.ending(ids.next());
        Admission admission = gateway.admit(ending, bearer, call).join();
        return switch (admission) {
            case Admission.Refused refused -> new Exchanged.Refused(ending.auditId(), refused.refusal());
            case Admission.Admitted admitted -> send(admitted.call(), outgoing);
        };
    }

    /** Holds a wait of {@code bearer}'s on {@code cluster} among the open calls ({@link Gateway#hold}). */
    public Gateway.Held hold(Bearer bearer, ClusterId cluster) {
        return gateway.hold(bearer, cluster);
    }

    /** The transport of an open call: the JDK's client, pinned to the cluster's CA, the whole answer read. */
    private Exchanged send(OpenCall open, Outgoing outgoing) {
        String auditId = open.auditId();
        AtomicReference<CutReason> cut = new AtomicReference<>();
        Thread sending = Thread.currentThread();
        // Registered before the request is built: only then are its target and impersonation given out.
        open.register(reason -> {
            cut.set(reason);
            sending.interrupt();
        });
        HttpRequest request;
        try {
            request = request(open, outgoing);
        } catch (RuntimeException e) {
            // Nothing was sent: the call ends, its row says so (a defect of Klave's, never the client's).
            open.answered();
            LOG.atError().addKeyValue(LogFields.AUDIT_ID, auditId).log("call {} to cluster {} not sent: {}", auditId,
                    open.call().cluster(), Untrusted.text(e.toString()));
            open.end(Message.PREVIEW_NOT_DRY_RUN.status(), Optional.of(Message.PREVIEW_NOT_DRY_RUN.text()));
            return new Exchanged.Refused(auditId, Message.PREVIEW_NOT_DRY_RUN.refusal());
        }
        Answer answer;
        try {
            answer = endpoints.client(clients, open.call().cluster(), "", open.cluster()).send(request);
        } catch (OutboundFailure failure) {
            open.answered();
            if (cut.get() != null) {
                return cut(open, cut.get());
            }
            return failed(open, failure);
        } catch (RuntimeException e) {
            // Not a failure the client reports (a defect): the call still ends, its row with it.
            open.answered();
            LOG.atError().addKeyValue(LogFields.AUDIT_ID, auditId).setCause(e).log("call {} to cluster {} failed",
                    auditId, open.call().cluster());
            open.end(Message.UPSTREAM_CONNECTION.status(), Optional.of(Message.UPSTREAM_CONNECTION.text()));
            return new Exchanged.Failed(auditId, Message.UPSTREAM_CONNECTION, Message.UPSTREAM_CONNECTION.text());
        }
        open.answered();
        if (cut.get() != null) {
            return cut(open, cut.get());
        }
        open.end(answer.status(), Optional.empty());
        return new Exchanged.Answered(auditId, answer.status(), answer.headers(), answer.body());
    }

    /** Cut before its answer was whole: refused as the proxy refuses a request cut in flight. */
    private Exchanged cut(OpenCall open, CutReason reason) {
        // The interrupt was ours, and is spent.
        Thread.interrupted();
        Message refused = reason.refusal();
        open.end(refused.status(), Optional.of(reason == CutReason.SHUTDOWN ? reason.text() : refused.text()));
        return new Exchanged.Refused(open.auditId(), refused.refusal());
    }

    private Exchanged failed(OpenCall open, OutboundFailure failure) {
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

    /**
     * The request as it will leave. A preview's URI is read back and must be a dry run: whatever
     * built the call, a preview without {@code dryRun=All} on the wire is never sent (fail closed).
     *
     * @throws IllegalStateException for a preview that is not a dry run on the wire
     */
    private HttpRequest request(OpenCall open, Outgoing outgoing) {
        URI uri = open.uri();
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .method(open.call().method(), outgoing.body().map(HttpRequest.BodyPublishers::ofByteArray)
                        .orElse(HttpRequest.BodyPublishers.noBody()))
                .header("Accept", outgoing.accept())
                .header("User-Agent", "klave");
        outgoing.contentType().ifPresent(type -> request.header("Content-Type", type));
        outgoing.ifNoneMatch().ifPresent(tag -> request.header("If-None-Match", tag));
        for (Map.Entry<String, String> header : open.impersonation()) {
            request.header(header.getKey(), header.getValue());
        }
        return request.build();
    }
}
