package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A failed request, carried as the {@code Status} object the API server would send, with the
 * apiserver's English messages (k8s.io/apimachinery/pkg/api/errors).
 */
final class ApiException extends RuntimeException {
    private final int code;
    private final String reason;
    private final ObjectNode details;

    private ApiException(int code, String reason, String message, ObjectNode details) {
        super(requireNonNull(message, "message is null"));
        this.code = code;
        this.reason = requireNonNull(reason, "reason is null");
        this.details = details;
    }

    int code() {
        return code;
    }

    String reason() {
        return reason;
    }

    ObjectNode status() {
        ObjectNode status = Json.object();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure");
        status.put("message", getMessage());
        status.put("reason", reason);
        if (details != null) {
            status.set("details", details);
        }
        status.put("code", code);
        return status;
    }

    static ApiException notFound(String group, String resource, String name) {
        return new ApiException(404, "NotFound", qualified(group, resource) + " \"" + name + "\" not found",
                details(group, resource, name));
    }

    static ApiException alreadyExists(String group, String resource, String name) {
        return new ApiException(409, "AlreadyExists", qualified(group, resource) + " \"" + name + "\" already exists",
                details(group, resource, name));
    }

    static ApiException conflict(String group, String resource, String name, String why) {
        return new ApiException(409, "Conflict", "Operation cannot be fulfilled on " + qualified(group, resource)
                + " \"" + name + "\": " + why, details(group, resource, name));
    }

    /** An apply conflict keeps its own wording: "Apply failed with 1 conflict: …". */
    static ApiException applyConflict(String group, String resource, String name, String message) {
        return new ApiException(409, "Conflict", message, details(group, resource, name));
    }

    static ApiException forbidden(String group, String resource, String name, String why) {
        String message;
        if (resource.isEmpty()) {
            message = "forbidden: " + why;
        } else if (name.isEmpty()) {
            message = qualified(group, resource) + " is forbidden: " + why;
        } else {
            message = qualified(group, resource) + " \"" + name + "\" is forbidden: " + why;
        }
        return new ApiException(403, "Forbidden", message, details(group, resource, name));
    }

    static ApiException unauthorized() {
        return new ApiException(401, "Unauthorized", "Unauthorized", null);
    }

    static ApiException badRequest(String message) {
        return new ApiException(400, "BadRequest", message, null);
    }

    static ApiException invalid(String group, String kind, String name, String field, String problem) {
        ObjectNode details = details(group, kind, name);
        ObjectNode cause = details.putArray("causes").addObject();
        cause.put("reason", "FieldValueInvalid");
        cause.put("message", problem);
        cause.put("field", field);
        return new ApiException(422, "Invalid", kind + " \"" + name + "\" is invalid: " + field + ": " + problem, details);
    }

    static ApiException methodNotAllowed() {
        return new ApiException(405, "MethodNotAllowed",
                "the server does not allow this method on the requested resource", null);
    }

    static ApiException pathNotFound() {
        return new ApiException(404, "NotFound", "the server could not find the requested resource", null);
    }

    static ApiException unsupportedMediaType(String contentType) {
        return new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
                + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
                + "application/apply-patch+yaml, application/strategic-merge-patch+json; got " + contentType, null);
    }

    static ApiException unsupportedBody(String contentType) {
        return new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
                + "accepted media types include: application/json, application/yaml", null);
    }

    static ApiException gone(String message) {
        return new ApiException(410, "Expired", message, null);
    }

    static ApiException internal(String message) {
        return new ApiException(500, "InternalError", message, null);
    }

    static String qualified(String group, String resource) {
        return group.isEmpty() ? resource : resource + "." + group;
    }

    private static ObjectNode details(String group, String kind, String name) {
        ObjectNode details = Json.object();
        if (!name.isEmpty()) {
            details.put("name", name);
        }
        if (!group.isEmpty()) {
            details.put("group", group);
        }
        details.put("kind", kind);
        return details;
    }
}
