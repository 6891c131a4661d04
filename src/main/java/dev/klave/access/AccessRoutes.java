package dev.klave.access;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectStore;
import dev.klave.cluster.ClusterCallFailed;
import dev.klave.cluster.ClusterId;
import dev.klave.http.Access;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.Listing;
import dev.klave.http.RouteProvider;
import dev.klave.messages.Message;
import dev.klave.storage.Keyset;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@code /api/grants} and {@code /api/tiers} (spec 1 §4 "Grants"). */
public final class AccessRoutes implements RouteProvider {
    private static final String LISTING = "grants";
    private static final Set<String> FILTERS = Set.of("subject", "cluster", "include_revoked");

    private final Grants grants;
    private final GrantOrigins origins;
    private final SubjectStore subjects;
    private final Clock clock;

    /** @param origins which grants came from an access request (issue 41), shown with them */
    public AccessRoutes(Grants grants, GrantOrigins origins, SubjectStore subjects, Clock clock) {
        this.grants = requireNonNull(grants, "grants is null");
        this.origins = requireNonNull(origins, "origins is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    record NewGrant(String subjectId, String clusterId, String tier, String scope, Optional<String> expiresAt,
            Optional<String> note) {}

    record GrantView(String id, String subjectId, String subjectLogin, String clusterId, String tier, String scope,
            String group, Optional<Instant> expiresAt, String note, Instant createdAt, Optional<Instant> revokedAt,
            boolean active, Optional<GrantOrigins.Origin> request) {}

    record TierView(String name, String description, boolean writes, boolean namespaceScope, boolean clusterScope) {}

    record Catalogue(List<TierView> tiers, List<String> protectedNamespaces, boolean podSecurityRequired) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/grants", Access.SESSION, this::list)
                .post("/api/grants", Access.ADMIN, request -> {
                    NewGrant body = request.json(NewGrant.class);
                    try {
                        Grant grant = grants.create(new Grants.Request(body.subjectId(), body.clusterId(), body.tier(),
                                body.scope(), body.expiresAt().map(AccessRoutes::instant), body.note()),
                                Principal.of(request));
                        return ApiResponse.created(view(grant, clock.instant()));
                    } catch (ClusterCallFailed e) {
                        throw Message.CLUSTER_FAILED.refusal(e.summary());
                    }
                })
                .delete("/api/grants/{id}", Access.ADMIN, request -> {
                    grants.revoke(request.pathParameter("id"), Principal.of(request));
                    return ApiResponse.noContent();
                })
                .get("/api/tiers", Access.SESSION, request -> ApiResponse.ok(new Catalogue(
                        Arrays.stream(Tier.values()).map(tier -> new TierView(tier.code(), tier.description(),
                                tier.writes(), tier.onNamespace(), true)).toList(),
                        Grants.PROTECTED_NAMESPACES.stream().sorted().toList(), grants.podSecurityRequired())));
    }

    /**
     * Spec 1 §4: {@code subject}, {@code cluster}, {@code include_revoked=true}; the whole list, or
     * with {@code limit} or {@code cursor} one page of it, {@code {items, next_cursor}}.
     */
    private ApiResponse list(ApiRequest request) {
        Listing.onlyParameters(request, FILTERS);
        boolean paged = Listing.paged(request);
        int limit = paged ? Listing.limit(request) : Integer.MAX_VALUE;
        Optional<Keyset> after = paged ? Listing.keyset(request, LISTING) : Optional.empty();
        Principal caller = Principal.of(request);
        Optional<String> asked = request.queryParameter("subject");
        Optional<SubjectId> subject;
        if (!caller.admin()) {
            // Spec 1 §4: people see only their own grants; asking for anyone else's — by id or by
            // login, existing or not (whether it exists is not theirs to learn) — is 403.
            if (asked.isPresent() && !asked.get().equals(caller.subjectId().value())
                    && !asked.get().equals(caller.login().value())) {
                throw Message.OWN_GRANTS_ONLY.refusal();
            }
            subject = Optional.of(caller.subjectId());
        } else {
            subject = asked.map(this::subjectOf);
        }
        Optional<String> clusterText = request.queryParameter("cluster");
        if (clusterText.isPresent() && !ClusterId.isValid(clusterText.get())) {
            return ApiResponse.ok(paged ? new Listing.Page<>(List.of(), Optional.empty()) : List.of());
        }
        boolean includeRevoked = request.queryParameter("include_revoked").map("true"::equals).orElse(false);
        GrantFilter filter = new GrantFilter(subject, clusterText.map(ClusterId::new), includeRevoked);
        Instant now = clock.instant();
        if (!paged) {
            List<ListedGrant> rows = grants.list(filter, Optional.empty(), limit);
            Map<String, GrantOrigins.Origin> from = originsOf(rows);
            return ApiResponse.ok(rows.stream().map(row -> view(row, now, from)).toList());
        }
        List<ListedGrant> rows = grants.list(filter, after, limit + 1);
        Map<String, GrantOrigins.Origin> from = originsOf(rows);
        return ApiResponse.ok(Listing.page(rows, limit, row -> view(row, now, from),
                row -> Listing.keysetCursor(LISTING, row.keyset())));
    }

    /** One query for a page's grants, whatever its length. */
    private Map<String, GrantOrigins.Origin> originsOf(List<ListedGrant> rows) {
        return rows.isEmpty() ? Map.of() : origins.of(rows.stream().map(row -> row.grant().id()).toList());
    }

    private static GrantView view(ListedGrant row, Instant now, Map<String, GrantOrigins.Origin> from) {
        // Spec 1 §3: a disabled subject's grants are kept but do not count.
        return view(row.grant(), row.holderLogin().value(), row.grant().activeAt(now) && row.holderEnabled(),
                Optional.ofNullable(from.get(row.grant().id())));
    }

    private GrantView view(Grant grant, Instant now) {
        Optional<Subject> holder = subjects.findById(grant.subjectId());
        String login = holder.map(Subject::login).map(Object::toString).orElse("");
        return view(grant, login, grant.activeAt(now) && holder.map(Subject::enabled).orElse(false),
                Optional.empty());
    }

    private static GrantView view(Grant grant, String login, boolean counts, Optional<GrantOrigins.Origin> request) {
        return new GrantView(grant.id(), grant.subjectId().value(), login, grant.clusterId().value(),
                grant.tier().code(), grant.scope().value(), grant.group(), grant.expiresAt(), grant.note(),
                grant.createdAt(), grant.revokedAt(), counts, request);
    }

    /** The subject an administrator asks about: by id, or by login. */
    private SubjectId subjectOf(String text) {
        return subjects.idOrLogin(text);
    }

    private static Instant instant(String text) {
        try {
            return java.time.OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw Message.EXPIRY_INVALID.refusal();
        }
    }
}
