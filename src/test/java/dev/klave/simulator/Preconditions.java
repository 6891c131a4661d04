package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Optimistic concurrency as kube-apiserver enforces it. A write (PUT, any PATCH, server-side
 * apply, on the resource or its scale) whose object names a resourceVersion must name the stored
 * one (k8s.io/apiserver/pkg/registry/generic/registry/store.go, Update). A DELETE's
 * {@code DeleteOptions.preconditions} must match the stored uid and resourceVersion; that check is
 * rest.BeforeDelete's (k8s.io/apiserver/pkg/registry/rest/delete.go), which runs before storage
 * and names the object's kind, not its resource, in the Conflict ({@code on Pod "x"},
 * {@code on Deployment.apps "x"}). Dry runs are checked the same way.
 */
final class Preconditions {
    static final String MODIFIED = "the object has been modified; please apply your changes to the latest version and try again";

    private Preconditions() {
    }

    /** Fails with 409 when {@code wanted} carries a resourceVersion other than {@code live}'s. */
    static void checkResourceVersion(ResourceType type, String name, ObjectNode live, JsonNode wanted) {
        String expected = Json.string(wanted, "metadata", "resourceVersion").orElse("");
        if (!expected.isEmpty() && !expected.equals(Json.string(live, "metadata", "resourceVersion").orElse(""))) {
            throw ApiException.conflict(type.group(), type.plural(), name, MODIFIED);
        }
    }

    /** Fails with 409 when a DELETE's preconditions do not hold for the stored object. */
    static void checkDelete(ResourceType type, String name, ObjectNode live, JsonNode options) {
        JsonNode preconditions = options.path("preconditions");
        String uid = Json.string(live, "metadata", "uid").orElse("");
        String resourceVersion = Json.string(live, "metadata", "resourceVersion").orElse("");
        if (preconditions.hasNonNull("uid") && !preconditions.get("uid").asText().equals(uid)) {
            throw ApiException.conflict(type.group(), type.kind(), name, "the UID in the precondition ("
                    + preconditions.get("uid").asText() + ") does not match the UID in record (" + uid
                    + "). The object might have been deleted and then recreated");
        }
        if (preconditions.hasNonNull("resourceVersion") && !preconditions.get("resourceVersion").asText().equals(resourceVersion)) {
            throw ApiException.conflict(type.group(), type.kind(), name, "the ResourceVersion in the precondition ("
                    + preconditions.get("resourceVersion").asText() + ") does not match the ResourceVersion in record ("
                    + resourceVersion + "). The object might have been modified");
        }
    }
}
