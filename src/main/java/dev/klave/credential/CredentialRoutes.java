package dev.klave.credential;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectStore;
import dev.klave.cluster.ClusterId;
import dev.klave.http.Access;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.Json;
import dev.klave.http.RouteProvider;
import dev.klave.messages.Message;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code /api/credentials} (spec 1 §4 "Credentials"). */
public final class CredentialRoutes implements RouteProvider {
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
        routes.get("/api/credentials", Access.SESSION, request -> ApiResponse.ok(
                        credentials.list(Principal.of(request)).stream().map(this::view).toList()))
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

    /** The answer of an issue: the credential, and its token and kubeconfig this once. */
    public IssuedView issuedView(IssuedCredential issued) {
        CredentialView view = view(issued.credential());
        return new IssuedView(view.id(), view.name(), view.note(), view.subjectId(), view.subjectLogin(),
                view.clusterId(), view.createdAt(), view.expiresAt(), view.status(), view, issued.token(),
                issued.kubeconfig(), issued.clusters().stream().map(ClusterId::value).toList());
    }

    private CredentialView view(Credential credential) {
        String login = subjects.findById(credential.subjectId()).map(Subject::login).map(Object::toString).orElse("");
        return new CredentialView(credential.id(), credential.name(), credential.note(),
                credential.subjectId().value(), login, credential.clusterId().map(ClusterId::value),
                credential.createdAt(), credential.expiresAt(), credential.statusAt(clock.instant()).code(),
                credential.revokedAt(), credential.revokeReason());
    }
}
