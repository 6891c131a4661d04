package dev.klave.credential;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectStore;
import dev.klave.cluster.ClusterId;
import dev.klave.http.Access;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.Json;
import dev.klave.http.Listing;
import dev.klave.http.RouteProvider;
import dev.klave.messages.Message;
import dev.klave.storage.Keyset;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code /api/credentials} (spec 1 §4 "Credentials"). */
public final class CredentialRoutes implements RouteProvider {
    private static final String LISTING = "credentials";
    private static final Set<String> FILTERS = Set.of("subject", "cluster", "status", "q", "id");
    private static final int MAX_TEXT = 200;

    private final Credentials credentials;
    private final SubjectStore subjects;
    private final Clock clock;

    public CredentialRoutes(Credentials credentials, SubjectStore subjects, Clock clock) {
        this.credentials = requireNonNull(credentials, "credentials is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    record NewCredential(String ttl, Optional<String> name, Optional<String> note, Optional<String> clusterId,
            Optional<String> subjectId) {}

    record CredentialView(String id, String name, String note, String subjectId, String subjectLogin,
            Optional<String> clusterId, Instant createdAt, Instant expiresAt, String status,
            Optional<Instant> revokedAt, Optional<String> revokeReason) {}

    record IssuedView(String id, String name, String note, String subjectId, String subjectLogin,
            Optional<String> clusterId, Instant createdAt, Instant expiresAt, String status, CredentialView credential,
            String token, String kubeconfig, List<String> clusters) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/credentials", Access.SESSION, this::list)
                .post("/api/credentials", Access.SESSION, request -> {
                    NewCredential body = request.json(NewCredential.class);
                    IssuedCredential issued = credentials.issue(new Credentials.Request(body.ttl(), body.name(),
                            body.note(), body.clusterId(), body.subjectId()), Principal.of(request), Optional.empty());
                    return ApiResponse.created(issuedView(issued));
                })
                .post("/api/credentials/{id}/revoke", Access.SESSION, request -> {
                    Optional<String> reason = Optional.empty();
                    if (request.body().length > 0) {
                        ObjectNode body = Json.readObject(request.body());
                        Json.refuseUnknownFields(body, Set.of("reason"));
                        JsonNode value = body.get("reason");
                        if (value != null && !value.isNull() && !value.isTextual()) {
                            throw Message.INVALID_JSON.refusal();
                        }
                        reason = Optional.ofNullable(value).filter(JsonNode::isTextual).map(JsonNode::textValue);
                    }
                    return ApiResponse.ok(view(credentials.revoke(request.pathParameter("id"), reason,
                            Principal.of(request))));
                });
    }

    /**
     * Spec 1 §4: the whole list (an administrator's is everyone's). With {@code limit} or
     * {@code cursor}, one page of it, {@code {items, next_cursor}}, filtered on the server.
     */
    private ApiResponse list(ApiRequest request) {
        Listing.onlyParameters(request, FILTERS);
        Optional<List<String>> ids = Listing.ids(request);
        if (ids.isPresent()) {
            return ApiResponse.ok(credentials.named(Principal.of(request), ids.get()).stream().map(this::view).toList());
        }
        boolean paged = Listing.paged(request);
        int limit = paged ? Listing.limit(request) : Integer.MAX_VALUE;
        Optional<Keyset> after = paged ? Listing.keyset(request, LISTING) : Optional.empty();
        Principal caller = Principal.of(request);
        Optional<SubjectId> subject = request.queryParameter("subject").map(asked -> subjectOf(asked, caller));
        Optional<String> clusterText = request.queryParameter("cluster");
        if (clusterText.isPresent() && !ClusterId.isValid(clusterText.get())) {
            // No cluster has such an id, so none of its credentials can be restricted to it.
            return ApiResponse.ok(paged ? new Listing.Page<>(List.of(), Optional.empty()) : List.of());
        }
        Optional<CredentialStatus> status = request.queryParameter("status").map(CredentialRoutes::status);
        Optional<String> text = request.queryParameter("q").map(String::strip).filter(value -> !value.isEmpty());
        if (text.filter(value -> value.length() > MAX_TEXT).isPresent()) {
            throw Message.FILTER_INVALID.refusal("q", "como mucho " + MAX_TEXT + " caracteres");
        }
        CredentialFilter filter = new CredentialFilter(subject, clusterText.map(ClusterId::new), status, text);
        if (!paged) {
            return ApiResponse.ok(credentials.list(caller, filter, Optional.empty(), limit).stream()
                    .map(this::view).toList());
        }
        List<ListedCredential> rows = credentials.list(caller, filter, after, limit + 1);
        return ApiResponse.ok(Listing.page(rows, limit, this::view,
                row -> Listing.keysetCursor(LISTING, row.keyset())));
    }

    /** An owner asked about by id or by login; another's is not a person's to ask about (403). */
    private SubjectId subjectOf(String text, Principal caller) {
        boolean own = text.equals(caller.subjectId().value()) || text.equals(caller.login().value());
        if (!caller.admin() && !own) {
            throw Message.OTHERS_CREDENTIALS.refusal();
        }
        if (own) {
            return caller.subjectId();
        }
        return subjects.idOrLogin(text);
    }

    private static CredentialStatus status(String text) {
        try {
            return CredentialStatus.parse(text);
        } catch (IllegalArgumentException e) {
            throw Message.FILTER_INVALID.refusal("status", "active, revoked o expired");
        }
    }

    private CredentialView view(ListedCredential row) {
        return view(row.credential(), row.ownerLogin().value());
    }

    /** The answer of an issue: the credential, and its token and kubeconfig this once. */
    public IssuedView issuedView(IssuedCredential issued) {
        CredentialView view = view(issued.credential());
        return new IssuedView(view.id(), view.name(), view.note(), view.subjectId(), view.subjectLogin(),
                view.clusterId(), view.createdAt(), view.expiresAt(), view.status(), view, issued.token(),
                issued.kubeconfig(), issued.clusters().stream().map(ClusterId::value).toList());
    }

    /** One credential, its owner read by id: for answers about a single one. */
    private CredentialView view(Credential credential) {
        return view(credential,
                subjects.findById(credential.subjectId()).map(Subject::login).map(Object::toString).orElse(""));
    }

    private CredentialView view(Credential credential, String login) {
        return new CredentialView(credential.id(), credential.name(), credential.note(),
                credential.subjectId().value(), login, credential.clusterId().map(ClusterId::value),
                credential.createdAt(), credential.expiresAt(), credential.statusAt(clock.instant()).code(),
                credential.revokedAt(), credential.revokeReason());
    }
}
