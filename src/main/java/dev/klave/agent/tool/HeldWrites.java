package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.agent.tool.Agent;
import dev.klave.agent.approval.RequestPages;
import dev.klave.agent.approval.AccessRequest;
import dev.klave.agent.approval.AccessRequests;
import dev.klave.agent.approval.Approvals;
import dev.klave.agent.approval.HeldCall;
import dev.klave.agent.approval.WriteRequest;
import dev.klave.agent.approval.WriteStatus;
import dev.klave.config.BaseUrl;
import dev.klave.crypto.Sealer;
import dev.klave.gateway.ClusterExchange;
import dev.klave.gateway.Exchanged;
import dev.klave.gateway.CallChain;
import dev.klave.gateway.Call.Intent;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;

/**
 * The write approval flow (spec 3 §3 "Write request", §4 "Write approval flow"): when approval is
 * on and no approved access request covers the write, the write is sent as a dry run, stored with
 * a preview, and answered with a URL elicitation (2026-07-28 clients that declare it) or
 * {@code agent.approval_pending}; called again, it waits for the person, and runs the stored
 * request once when approved.
 */
final class HeldWrites {
    static final String INPUT_KEY = "approval";

    private final Approvals approvals;
    private final AccessRequests accessRequests;
    private final RequestStates states;
    private final Sealer bodies;
    private final AgentCheck stillValid;
    private final BaseUrl baseUrl;
    private final Duration wait;
    private final Clock clock;

    /** Checks, again, that an agent's credential still admits it (after a long wait, before a write runs). */
    @FunctionalInterface
    public interface AgentCheck {
        /** @throws dev.klave.messages.Refusal when it no longer does */
        void check(Agent agent);
    }

    HeldWrites(Approvals approvals, AccessRequests accessRequests, RequestStates states, Sealer bodies,
            AgentCheck stillValid, BaseUrl baseUrl, Duration wait, Clock clock) {
        this.approvals = requireNonNull(approvals, "approvals is null");
        this.accessRequests = requireNonNull(accessRequests, "accessRequests is null");
        this.states = requireNonNull(states, "states is null");
        this.bodies = requireNonNull(bodies, "bodies is null");
        this.stillValid = requireNonNull(stillValid, "stillValid is null");
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
        this.wait = requireNonNull(wait, "wait is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Spec 3 §4: a write waits when approval is on, unless an approved access request that writes covers it. */
    boolean needed(Agent agent, ClusterCalls calls, String namespace) {
        if (!agent.writesNeedApproval()) {
            return false;
        }
        for (AccessRequest request : accessRequests.inForce(AccountTools.actor(agent), clock.instant())) {
            if (request.cluster().equals(calls.cluster()) && request.role().writes()
                    && (request.scope().wholeCluster() || request.scope().value().equals(namespace))) {
                return false;
            }
        }
        return true;
    }

    /** Whether this call resumes a held write: it names one, or echoes a requestState. */
    static boolean resuming(ToolCall call) {
        return call.arguments().get(Catalogue.APPROVAL_ID).isPresent() || call.requestState().isPresent();
    }

    /** The identity of a write's arguments ({@code approval_id} aside): same arguments, same request. */
    static String argumentsHash(ToolCall call) {
        ObjectNode arguments = call.arguments().asJson();
        arguments.remove(Catalogue.APPROVAL_ID.name());
        String canonical = call.name().wire() + " " + Yaml.canonical(arguments);
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The first call: dry run, store, ask (steps 1 and 2). */
    ToolResult hold(ToolCall call, ClusterCalls calls, Planned planned)
            throws ToolError, ClusterRefusal, InterruptedException {
        String hash = argumentsHash(call);
        Optional<WriteRequest> same = approvals.pending(AccountTools.actor(call.agent()), hash);
        if (same.isPresent()) {
            return ask(call, same.get(), hash);
        }
        if (approvals.full(AccountTools.actor(call.agent()).subject())) {
            throw ToolError.of(Message.AGENT_TOO_MANY_PENDING, Map.of("max", Approvals.MAX_PENDING));
        }
        Optional<JsonNode> current = current(calls, planned);
        JsonNode dryRun = ClusterCalls.json(send(calls, planned.request().dryRun()));
        Optional<JsonNode> result = planned.verb().equals("delete") ? Optional.empty() : Optional.of(dryRun);
        String preview = Yaml.compact(Previews.of(calls.cluster().value(), planned, current, result));
        if (preview.getBytes(StandardCharsets.UTF_8).length > WriteRequest.MAX_PREVIEW_BYTES) {
            throw ToolError.of(Message.AGENT_PREVIEW_TOO_LARGE, Map.of("max", "256 KiB"));
        }
        Planned.Request held = planned.precondition().held(planned.request(), dryRun, current);
        WriteRequest request;
        try {
            request = approvals.hold(AccountTools.actor(call.agent()), call.agent().decider(), calls.cluster(),
                    planned.namespace(), call.name().wire(), planned.verb(), planned.kind().plural(), planned.name(),
                    hash, new HeldCall(held.method(), held.path(), held.query(), held.body().map(body -> bodies.seal(
                            body.getBytes(StandardCharsets.UTF_8), bodyData(call.agent(), hash))), held.contentType()),
                    preview);
        } catch (Refusal refusal) {
            throw refused(refusal);
        }
        return ask(call, request, hash);
    }

    /** A call again (step 3): wait for the person, then run the stored request once. */
    ToolResult resume(ToolCall call, ClusterCalls calls, Planned planned)
            throws ToolError, ClusterRefusal, InterruptedException {
        String hash = argumentsHash(call);
        String principal = call.agent().rateKey();
        String id;
        if (call.requestState().isPresent()) {
            id = states.verify(call.requestState().get(), principal, hash).orElseThrow(InvalidRequestState::new);
            if (declined(call)) {
                // The person said no to opening the page, for now: the request stays open (spec 3 §4).
                return pending(approvals.find(id).orElseThrow(() -> mismatch()));
            }
        } else {
            id = call.arguments().get(Catalogue.APPROVAL_ID).orElseThrow();
        }
        WriteRequest request = approvals.find(id).filter(found -> found.actor().equals(AccountTools.actor(call.agent())))
                .orElseThrow(HeldWrites::mismatch);
        if (!request.argumentsHash().equals(hash)) {
            throw mismatch();
        }
        if (request.statusAt(clock.instant()) == WriteStatus.PENDING && !wait.isZero()) {
            // The wait is an open call of the agent's: what cuts a call (a revocation, a grant
            // that ends, shutdown) ends it at once rather than at the end of the wait.
            try (CallChain.Held held = calls.hold()) {
                try {
                    request = approvals.await(id, wait);
                } catch (InterruptedException interrupted) {
                    if (held.cut().isEmpty()) {
                        throw interrupted;
                    }
                }
                if (held.cut().isPresent()) {
                    // Cut while waiting, or as the wait ended: the interrupt was the guard's.
                    Thread.interrupted();
                    Message refused = held.cut().get().refusal();
                    throw new ToolError(refused.code(), refused.text(), Map.of());
                }
            }
        }
        return switch (request.statusAt(clock.instant())) {
            case PENDING -> ask(call, request, hash);
            case DENIED -> throw ToolError.of(Message.AGENT_APPROVAL_DENIED);
            case EXPIRED -> throw ToolError.of(Message.AGENT_APPROVAL_EXPIRED);
            case EXECUTED -> throw ToolError.of(Message.AGENT_APPROVAL_EXECUTED);
            case APPROVED -> execute(call.agent(), calls, planned, request);
        };
    }

    /** The associated data of a held body: whose request it is and which arguments made it. */
    private static byte[] bodyData(Agent agent, String argumentsHash) {
        return ("klave held write " + agent.rateKey() + " " + argumentsHash).getBytes(StandardCharsets.UTF_8);
    }

    private ToolResult execute(Agent agent, ClusterCalls calls, Planned planned, WriteRequest request)
            throws ToolError, ClusterRefusal, InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("the client left before the approved write ran");
        }
        try {
            // The wait may have lasted minutes: a credential revoked meanwhile claims nothing.
            stillValid.check(agent);
        } catch (Refusal refusal) {
            throw new ToolError(refusal.kind().code(), refusal.getMessage(), Map.of());
        }
        if (!approvals.claim(request.id())) {
            throw ToolError.of(Message.AGENT_APPROVAL_EXECUTED);
        }
        HeldCall held = request.call();
        Optional<String> body;
        try {
            body = held.body().map(sealed -> new String(bodies.open(sealed, bodyData(agent, request.argumentsHash())),
                    StandardCharsets.UTF_8));
        } catch (Sealer.Unreadable unreadable) {
            // Another key, or a row changed in the database: run nothing (fail closed).
            throw ToolError.of(Message.AGENT_APPROVAL_MISMATCH);
        }
        Planned.Request stored = new Planned.Request(held.method(), held.path(), held.query(), body,
                held.contentType());
        String approved = "approved by " + request.decidedBy().orElse("?") + " at "
                + request.decidedAt().map(at -> at.truncatedTo(ChronoUnit.SECONDS).toString()).orElse("?") + "\n";
        Exchanged.Answered answered = calls.answer(stored.method(), stored.path(), stored.query(), outgoing(stored),
                Intent.ACT);
        if (answered.status() >= 400) {
            ClusterRefusal refusal = ClusterRefusal.of(answered);
            return ToolResult.Done.failed(approved + refusal.text(), Optional.empty());
        }
        return ToolResult.Done.text(approved + planned.renderer().render(ClusterCalls.json(answered)));
    }

    private ToolResult ask(ToolCall call, WriteRequest request, String hash) {
        String url = RequestPages.decide(baseUrl, request.id());
        if (call.urlElicitation()) {
            String message = "Approve in Klave: " + request.verb() + " " + request.resource() + "/" + request.name()
                    + " in " + (request.namespace().isEmpty() ? "(cluster scope)" : request.namespace()) + " ("
                    + request.cluster().value() + ")";
            return new ToolResult.InputRequired(INPUT_KEY, message, url,
                    states.issue(request.id(), call.agent().rateKey(), hash));
        }
        return pending(request);
    }

    private ToolResult pending(WriteRequest request) {
        String url = RequestPages.decide(baseUrl, request.id());
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("id", request.id()).put("url", url).put("expires_at", request.expiresAt().toString());
        ObjectNode structured = JsonNodeFactory.instance.objectNode();
        structured.put("code", Message.AGENT_APPROVAL_PENDING.code());
        structured.set("params", params);
        structured.put("error", Message.AGENT_APPROVAL_PENDING.text());
        String text = Message.AGENT_APPROVAL_PENDING.code() + ": " + Message.AGENT_APPROVAL_PENDING.text()
                + "\nid: " + request.id() + "\nurl: " + url + "\nexpires_at: " + request.expiresAt()
                + "\nGive the person the link, then call this tool again with the same arguments and approval_id="
                + request.id() + " (repeat while it answers agent.approval_pending).";
        return ToolResult.Done.failed(text, Optional.of(structured));
    }

    /** The client answered the URL elicitation with decline or cancel. */
    private static boolean declined(ToolCall call) {
        JsonNode answer = call.inputResponses().map(responses -> responses.path(INPUT_KEY)).orElse(null);
        if (answer == null || answer.isMissingNode()) {
            return false;
        }
        String action = answer.path("action").asText("");
        return action.equals("decline") || action.equals("cancel");
    }

    Optional<JsonNode> current(ClusterCalls calls, Planned planned) throws ToolError, ClusterRefusal,
            InterruptedException {
        // The object the write changes: the scale subresource for scale, the object itself otherwise.
        Exchanged.Answered answered = calls.answer(Method.GET, planned.request().path(), Query.NONE,
                ClusterExchange.Outgoing.NONE, Intent.ACT);
        if (answered.status() == 404) {
            return Optional.empty();
        }
        if (answered.status() >= 400) {
            throw ClusterRefusal.of(answered);
        }
        return Optional.of(ClusterCalls.json(answered));
    }

    static Exchanged.Answered send(ClusterCalls calls, Planned.Request request)
            throws ToolError, ClusterRefusal, InterruptedException {
        Exchanged.Answered answered = calls.answer(request.method(), request.path(), request.query(),
                outgoing(request), request.intent());
        if (answered.status() >= 400) {
            throw ClusterRefusal.of(answered);
        }
        return answered;
    }

    private static ClusterExchange.Outgoing outgoing(Planned.Request request) {
        return new ClusterExchange.Outgoing(request.body().map(text -> text.getBytes(StandardCharsets.UTF_8)),
                request.contentType(), ClusterCalls.JSON);
    }

    private static ToolError mismatch() {
        return ToolError.of(Message.AGENT_APPROVAL_MISMATCH);
    }

    private static ToolError refused(Refusal refusal) {
        if (refusal.kind() == Message.AGENT_TOO_MANY_PENDING) {
            return ToolError.of(Message.AGENT_TOO_MANY_PENDING, Map.of("max", Approvals.MAX_PENDING));
        }
        return new ToolError(refusal.kind().code(), refusal.getMessage(), Map.of());
    }
}
