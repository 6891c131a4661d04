package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.account.SubjectStore;
import dev.klave.cluster.ClusterCallFailed;
import dev.klave.http.Access;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.Json;
import dev.klave.http.RouteProvider;
import dev.klave.messages.Message;
import java.time.Clock;
import java.util.List;
import java.util.function.BiFunction;

/**
 * {@code /api/agents/requests}: the page {@code /agents/requests/<id>} (spec 3 §2) and the agents
 * page read and decide agents' write and access requests here. Only a request's decider sees it —
 * for anyone else it does not exist (404) — and only a pending, unexpired one can be decided (409).
 * {@code /api/agents/waiting} counts what waits for the caller's decision, for the menu.
 */
public final class RequestRoutes implements RouteProvider {
    private final Approvals approvals;
    private final AccessRequests accessRequests;
    private final AccessDecisions decisions;
    private final RequestViews views;
    private final Clock clock;

    public RequestRoutes(Approvals approvals, AccessRequests accessRequests, AccessDecisions decisions,
            SubjectStore subjects, Clock clock) {
        this.decisions = requireNonNull(decisions, "decisions is null");
        this.approvals = requireNonNull(approvals, "approvals is null");
        this.accessRequests = requireNonNull(accessRequests, "accessRequests is null");
        this.views = new RequestViews(subjects, clock);
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/agents/requests", Access.SESSION, request -> {
                    Principal caller = Principal.of(request);
                    return ApiResponse.ok(new RequestViews.Listing(
                            approvals.decidableBy(caller).stream().map(held -> views.write(held, false)).toList(),
                            accessRequests.decidableBy(caller).stream().map(views::access).toList()));
                })
                .get("/api/agents/waiting", Access.SESSION, request -> ApiResponse.ok(waiting(Principal.of(request))))
                .get("/api/agents/requests/{id}", Access.SESSION, request -> ApiResponse.ok(view(request)))
                .post("/api/agents/requests/{id}/approve", Access.SESSION,
                        request -> decide(request, approvals::approve, decisions::approve))
                .post("/api/agents/requests/{id}/deny", Access.SESSION,
                        request -> decide(request, approvals::deny, decisions::deny));
    }

    /**
     * How many decisions wait for the caller (the menu's count, kept current by a poll): agents'
     * writes, access requests (agents' and people's), and of those the people's own (issue 41).
     */
    record Waiting(int writes, int access, int people, int total) {}

    private Waiting waiting(Principal caller) {
        int writes = (int) approvals.decidableBy(caller).stream()
                .filter(request -> request.statusAt(clock.instant()) == WriteStatus.PENDING).count();
        List<AccessRequest> access = accessRequests.decidableBy(caller).stream()
                .filter(request -> request.statusAt(clock.instant()) == AccessStatus.PENDING).toList();
        int people = (int) access.stream().filter(AccessRequest::byPerson).count();
        return new Waiting(writes, access.size(), people, writes + access.size());
    }

    private Object view(ApiRequest request) {
        String id = request.pathParameter("id");
        Principal caller = Principal.of(request);
        if (id.startsWith(RequestIds.WRITE)) {
            return views.write(approvals.decidable(id, caller).orElseThrow(Message.NOT_FOUND::refusal), true);
        }
        if (id.startsWith(RequestIds.ACCESS)) {
            return views.access(accessRequests.decidable(id, caller).orElseThrow(Message.NOT_FOUND::refusal));
        }
        throw Message.NOT_FOUND.refusal();
    }

    private ApiResponse decide(ApiRequest request, BiFunction<String, Principal, WriteRequest> write,
            BiFunction<String, Principal, AccessRequest> access) {
        // No body, or an empty object: a decision carries nothing but itself.
        if (request.body().length > 0) {
            Json.refuseUnknownFields(Json.readObject(request.body()), java.util.Set.of());
        }
        String id = request.pathParameter("id");
        Principal caller = Principal.of(request);
        if (id.startsWith(RequestIds.WRITE)) {
            return ApiResponse.ok(views.write(write.apply(id, caller), true));
        }
        if (!id.startsWith(RequestIds.ACCESS)) {
            throw Message.NOT_FOUND.refusal();
        }
        try {
            return ApiResponse.ok(views.access(access.apply(id, caller)));
        } catch (ClusterCallFailed e) {
            // Granting a writing role asks the cluster whether the namespace enforces pod-security.
            throw Message.CLUSTER_FAILED.refusal(e.summary());
        }
    }
}
