package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Authority;
import dev.klave.access.EligibleGrant;
import dev.klave.access.EligibleGrants;
import dev.klave.access.Grants;
import dev.klave.access.Tier;
import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectStore;
import dev.klave.audit.AuditFilter;
import dev.klave.audit.AuditStore;
import dev.klave.cluster.ClusterCallFailed;
import dev.klave.cluster.ClusterStore;
import dev.klave.http.Access;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.RouteProvider;
import dev.klave.messages.Message;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code /api/access/…} (issue 41, not in the specification): a person asks for access, follows,
 * cancels and ends their requests, and activates their eligible grants — with their session, or
 * from a terminal with their own {@code klt_} credential ({@link Askers}); deciders read a request
 * with its context and decide it with a comment; administrators give eligible grants and set each
 * cluster's access policy. Agents' requests are decided here too (one queue), and still through
 * spec 3's {@code /api/agents/requests}.
 */
public final class AccessRequestRoutes implements RouteProvider {
    /** How many of the requester's recent requests a decider sees beside one. */
    static final int RECENT = 10;
    /** The period of the requester's activity a decider sees. */
    static final Duration ACTIVITY = Duration.ofDays(7);

    private final AccessRequests requests;
    private final AccessDecisions decisions;
    private final AccessPolicies policies;
    private final EligibleGrants eligible;
    private final Grants grants;
    private final ClusterStore clusters;
    private final SubjectStore subjects;
    private final AuditStore audit;
    private final Askers askers;
    private final RequestViews views;
    private final Clock clock;

    public AccessRequestRoutes(AccessRequests requests, AccessDecisions decisions, AccessPolicies policies,
            EligibleGrants eligible, Grants grants, ClusterStore clusters, SubjectStore subjects, AuditStore audit,
            Askers askers, Clock clock) {
        this.requests = requireNonNull(requests, "requests is null");
        this.decisions = requireNonNull(decisions, "decisions is null");
        this.policies = requireNonNull(policies, "policies is null");
        this.eligible = requireNonNull(eligible, "eligible is null");
        this.grants = requireNonNull(grants, "grants is null");
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.audit = requireNonNull(audit, "audit is null");
        this.askers = requireNonNull(askers, "askers is null");
        this.views = new RequestViews(subjects, clock);
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** A person asking, and the credential they presented when not signed in. */
    public record Asker(Principal person, Optional<String> credentialId) {
        public Asker {
            requireNonNull(person, "person is null");
            requireNonNull(credentialId, "credentialId is null");
        }
    }

    record NewRequest(String clusterId, String tier, String scope, int minutes, String reason) {}

    record Activation(int minutes, String reason) {}

    record Decision(Optional<String> comment) {}

    record NewEligible(String subjectId, String clusterId, String tier, String scope, int maxMinutes,
            boolean needsApproval, Optional<String> note) {}

    record PolicyChange(int maxMinutes, boolean twoApprovals, List<String> deciders) {}

    record ClusterOption(String id, String name, int maxMinutes, boolean twoApprovals) {}

    record Options(List<ClusterOption> clusters, List<String> tiers, int minMinutes, int defaultMinutes,
            int reasonMax) {}

    record Own(List<RequestViews.AccessView> requests, List<EligibleView> eligible) {}

    record EligibleView(String id, String subjectId, String subjectLogin, String clusterId, String tier, String scope,
            int maxMinutes, boolean needsApproval, String note, Instant createdAt, Optional<Instant> revokedAt) {}

    record GrantLine(String id, String tier, String scope, Optional<Instant> expiresAt) {}

    record Activity(long requests, long refused, long days) {}

    /** What a decider sees beside a request: what the requester holds, asked and did on that cluster. */
    record Context(List<GrantLine> grants, List<RequestViews.AccessView> recent, Activity activity) {}

    record Detail(RequestViews.AccessView request, Optional<Context> context, boolean decidable, boolean own) {}

    record PolicyView(String clusterId, int maxMinutes, boolean twoApprovals, List<DeciderView> deciders) {}

    record DeciderView(String id, String login) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/access/options", Access.ANONYMOUS, request -> asking(request, asker -> options()))
                .get("/api/access/requests", Access.ANONYMOUS, request -> asking(request, asker -> new Own(
                        requests.askedBy(asker.person().subjectId()).stream().map(views::access).toList(),
                        eligible.list(Optional.of(asker.person().subjectId()), Optional.empty(), false).stream()
                                .map(this::view).toList())))
                .post("/api/access/requests", Access.ANONYMOUS, request -> {
                    Asker asker = askers.of(request);
                    NewRequest body = request.json(NewRequest.class);
                    AccessRequest asked = cluster(() -> requests.ask(asker.person(), asker.credentialId(),
                            new AccessRequests.Asked(body.clusterId(), body.tier(), body.scope(), body.minutes(),
                                    body.reason())));
                    return ApiResponse.created(views.access(asked));
                })
                .get("/api/access/requests/{id}", Access.ANONYMOUS, request -> asking(request,
                        asker -> detail(request.pathParameter("id"), asker)))
                .post("/api/access/requests/{id}/cancel", Access.ANONYMOUS, request -> asking(request,
                        asker -> views.access(requests.cancel(request.pathParameter("id"), asker.person()))))
                .post("/api/access/requests/{id}/end", Access.ANONYMOUS, request -> asking(request,
                        asker -> views.access(requests.end(request.pathParameter("id"), asker.person()))))
                .post("/api/access/requests/{id}/approve", Access.SESSION, request -> ApiResponse.ok(views.access(
                        cluster(() -> decisions.approve(request.pathParameter("id"), Principal.of(request),
                                decision(request))))))
                .post("/api/access/requests/{id}/deny", Access.SESSION, request -> ApiResponse.ok(views.access(
                        decisions.deny(request.pathParameter("id"), Principal.of(request), decision(request)))))
                .post("/api/access/eligible/{id}/activate", Access.ANONYMOUS, request -> {
                    Asker asker = askers.of(request);
                    Activation body = request.json(Activation.class);
                    return ApiResponse.created(views.access(cluster(() -> requests.activate(
                            request.pathParameter("id"), asker.person(), asker.credentialId(), body.minutes(),
                            body.reason()))));
                })
                .get("/api/access/eligible", Access.ADMIN, request -> ApiResponse.ok(eligible.list(
                        request.queryParameter("subject").map(subjects::idOrLogin), Optional.empty(),
                        request.queryParameter("include_revoked").map("true"::equals).orElse(false))
                        .stream().map(this::view).toList()))
                .post("/api/access/eligible", Access.ADMIN, request -> {
                    NewEligible body = request.json(NewEligible.class);
                    EligibleGrant made = cluster(() -> eligible.create(new EligibleGrants.Request(body.subjectId(),
                            body.clusterId(), body.tier(), body.scope(), body.maxMinutes(), body.needsApproval(),
                            body.note()), Principal.of(request)));
                    return ApiResponse.created(view(made));
                })
                .delete("/api/access/eligible/{id}", Access.ADMIN, request -> {
                    requests.revokeEligible(request.pathParameter("id"), Principal.of(request));
                    return ApiResponse.noContent();
                })
                .get("/api/access/policies/{cluster}", Access.ADMIN, request -> ApiResponse.ok(
                        view(policies.find(request.pathParameter("cluster")))))
                .add("PUT", "/api/access/policies/{cluster}", Access.ADMIN, request -> {
                    PolicyChange body = request.json(PolicyChange.class);
                    return ApiResponse.ok(view(policies.update(request.pathParameter("cluster"), body.maxMinutes(),
                            body.twoApprovals(), body.deciders() == null ? List.of() : body.deciders(),
                            Principal.of(request))));
                });
    }

    private ApiResponse asking(ApiRequest request, Function<Asker, Object> answer) {
        return ApiResponse.ok(answer.apply(askers.of(request)));
    }

    private static Optional<String> decision(ApiRequest request) {
        return request.body().length == 0 ? Optional.empty() : request.json(Decision.class).comment();
    }

    /** Asking about a namespace may call the cluster (pod-security): its failure is a 502 with its summary. */
    private static <T> T cluster(Supplier<T> work) {
        try {
            return work.get();
        } catch (ClusterCallFailed e) {
            throw Message.CLUSTER_FAILED.refusal(e.summary());
        }
    }

    private Options options() {
        List<ClusterOption> all = clusters.list().stream()
                .map(cluster -> {
                    AccessPolicy policy = policies.find(cluster.id().value());
                    return new ClusterOption(cluster.id().value(), cluster.name(), policy.maxMinutes(),
                            policy.twoApprovals());
                })
                .toList();
        List<String> tiers = Authority.delegableTiers().stream().map(Tier::code).toList();
        return new Options(all, tiers, AccessRequest.MIN_PERSON_MINUTES, 60, AccessRequest.MAX_REASON);
    }

    /** The requester sees their own; a decider sees it with its context; anyone else, nothing (404). */
    private Detail detail(String id, Asker asker) {
        Principal caller = asker.person();
        Optional<AccessRequest> decidable = requests.decidable(id, caller);
        Optional<AccessRequest> own = requests.own(id, caller);
        AccessRequest request = decidable.or(() -> own).orElseThrow(Message.NOT_FOUND::refusal);
        Optional<Context> context = decidable.map(this::context);
        return new Detail(views.access(request), context, decidable.isPresent(), own.isPresent());
    }

    private Context context(AccessRequest request) {
        Instant now = clock.instant();
        SubjectId requester = request.actor().subject();
        List<GrantLine> held = grants.list(Optional.of(requester), Optional.of(request.cluster()), false).stream()
                .filter(grant -> grant.activeAt(now))
                .map(grant -> new GrantLine(grant.id(), grant.tier().code(), grant.scope().value(), grant.expiresAt()))
                .toList();
        List<RequestViews.AccessView> recent = requests.recent(requester, request.cluster(), RECENT + 1).stream()
                .filter(other -> !other.id().equals(request.id())).limit(RECENT).map(views::access).toList();
        AuditFilter filter = new AuditFilter(Optional.of(requester.value()), Optional.of(request.cluster().value()),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(now.minus(ACTIVITY)),
                Optional.empty(), false, Optional.empty(), Optional.empty(), Optional.empty());
        long total = 0;
        long refused = 0;
        for (AuditStore.Bucket bucket : audit.activity(filter, Duration.ofDays(1))) {
            total += bucket.requests();
            refused += bucket.refused();
        }
        return new Context(held, recent, new Activity(total, refused, ACTIVITY.toDays()));
    }

    private EligibleView view(EligibleGrant grant) {
        String login = subjects.findById(grant.subjectId()).map(Subject::login).map(Object::toString).orElse("");
        return new EligibleView(grant.id(), grant.subjectId().value(), login, grant.clusterId().value(),
                grant.tier().code(), grant.scope().value(), grant.maxMinutes(), grant.needsApproval(), grant.note(),
                grant.createdAt(), grant.revokedAt());
    }

    private PolicyView view(AccessPolicy policy) {
        return new PolicyView(policy.cluster().value(), policy.maxMinutes(), policy.twoApprovals(),
                policies.deciders(policy).stream()
                        .map(subject -> new DeciderView(subject.id().value(), subject.login().value())).toList());
    }
}
