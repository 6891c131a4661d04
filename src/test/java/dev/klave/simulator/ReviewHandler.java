package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The review resources, answered from the same authenticator and RBAC the requests use:
 * SelfSubjectAccessReview ({@code kubectl auth can-i}), SubjectAccessReview (asking for someone
 * else) and SelfSubjectReview ({@code kubectl auth whoami}). Nothing is stored.
 */
final class ReviewHandler {
    private final RbacAuthorizer authorizer;

    ReviewHandler(RbacAuthorizer authorizer) {
        this.authorizer = requireNonNull(authorizer, "authorizer is null");
    }

    void handle(HttpExchange exchange, RequestInfo info, ResourceType type, UserInfo user) throws IOException {
        if (!info.verb().equals("create") || !info.name().isEmpty()) {
            throw ApiException.methodNotAllowed();
        }
        ObjectNode review = Json.parseObject(exchange.request().body());
        review.put("apiVersion", type.apiVersion());
        review.put("kind", type.kind());
        Json.objectAt(review, "metadata");
        ObjectNode status = review.putObject("status");
        switch (type.kind()) {
            case "SelfSubjectReview" -> userInfo(status.putObject("userInfo"), user);
            case "SelfSubjectAccessReview" -> decide(status, review.path("spec"), user);
            case "SubjectAccessReview" -> decide(status, review.path("spec"), subject(review.path("spec")));
            default -> throw ApiException.pathNotFound();
        }
        Responses.json(exchange, 201, review);
    }

    private void decide(ObjectNode status, JsonNode spec, UserInfo user) {
        AuthorizationAttributes attributes;
        if (spec.has("resourceAttributes")) {
            JsonNode resource = spec.path("resourceAttributes");
            attributes = new AuthorizationAttributes(user, resource.path("verb").asText(), true,
                    resource.path("group").asText(), resource.path("version").asText(), resource.path("resource").asText(),
                    resource.path("subresource").asText(), resource.path("namespace").asText(),
                    resource.path("name").asText(), "");
        } else if (spec.has("nonResourceAttributes")) {
            JsonNode nonResource = spec.path("nonResourceAttributes");
            attributes = AuthorizationAttributes.nonResource(user, nonResource.path("verb").asText(),
                    nonResource.path("path").asText());
        } else {
            throw ApiException.invalid("authorization.k8s.io", "SelfSubjectAccessReview", "", "spec.resourceAttributes",
                    "Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified");
        }
        RbacAuthorizer.Decision decision = authorizer.authorize(attributes);
        status.put("allowed", decision.allowed());
        if (!decision.reason().isEmpty()) {
            status.put("reason", decision.reason());
        }
    }

    private static UserInfo subject(JsonNode spec) {
        List<String> groups = new ArrayList<>();
        spec.path("groups").forEach(group -> groups.add(group.asText()));
        return new UserInfo(spec.path("user").asText(), spec.path("uid").asText(), groups, Map.of());
    }

    private static void userInfo(ObjectNode into, UserInfo user) {
        into.put("username", user.name());
        if (!user.uid().isEmpty()) {
            into.put("uid", user.uid());
        }
        user.groups().forEach(into.putArray("groups")::add);
        if (!user.extra().isEmpty()) {
            ObjectNode extra = into.putObject("extra");
            user.extra().forEach((key, values) -> values.forEach(extra.putArray(key)::add));
        }
    }
}
