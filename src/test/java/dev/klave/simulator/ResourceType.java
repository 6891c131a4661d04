package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** One served resource: what discovery lists and what the path parser resolves to. */
record ResourceType(String group, String version, String plural, String singular, String kind,
        boolean namespaced, List<String> shortNames, List<String> categories, List<String> verbs) {
    static final List<String> VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    ResourceType {
        requireNonNull(group, "group is null");
        requireNonNull(version, "version is null");
        requireNonNull(plural, "plural is null");
        requireNonNull(singular, "singular is null");
        requireNonNull(kind, "kind is null");
        shortNames = List.copyOf(shortNames);
        categories = List.copyOf(categories);
        verbs = List.copyOf(verbs);
    }

    /** A review (SelfSubjectAccessReview, …): only created, answered at once, never stored. */
    boolean review() {
        return verbs.equals(List.of("create"));
    }

    String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    String qualified() {
        return ApiException.qualified(group, plural);
    }

    /** The URL prefix of this resource's group version: /api/v1 or /apis/apps/v1. */
    String groupVersionPath() {
        return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
    }

    ApiException notFound(String name) {
        return ApiException.notFound(group, plural, name);
    }
}
