package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import dev.klave.kube.ClusterPath;
import java.util.ArrayList;
import java.util.List;

/**
 * A resource type as the cluster's discovery describes it: group, version, plural, kind, short
 * names, whether it lives in namespaces, and its subresources.
 */
record Kind(String group, String version, String plural, String singular, String kind, List<String> shortNames,
        boolean namespaced, List<String> subresources) {
    Kind {
        requireNonNull(group, "group is null");
        requireNonNull(version, "version is null");
        requireNonNull(plural, "plural is null");
        requireNonNull(singular, "singular is null");
        requireNonNull(kind, "kind is null");
        shortNames = List.copyOf(shortNames);
        subresources = List.copyOf(subresources);
    }

    String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    boolean coreSecret() {
        return group.isEmpty() && plural.equals("secrets");
    }

    /** What {@code kind} names: a kind, a plural, a singular or a short name, any case. */
    boolean answersTo(String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        return kind.equalsIgnoreCase(name) || plural.equals(lower) || singular.equals(lower)
                || shortNames.contains(lower);
    }

    /** The collection's path, in {@code namespace} when the kind is namespaced and one is given. */
    ClusterPath collection(String namespace) {
        List<String> segments = new ArrayList<>(group.isEmpty() ? List.of("api", version)
                : List.of("apis", group, version));
        if (namespaced && !namespace.isEmpty()) {
            segments.add("namespaces");
            segments.add(namespace);
        }
        segments.add(plural);
        return ClusterPath.of(segments.toArray(String[]::new));
    }

    ClusterPath object(String namespace, String name, String... subresource) {
        List<String> segments = new ArrayList<>(collection(namespace).segments());
        segments.add(name);
        segments.addAll(List.of(subresource));
        return ClusterPath.of(segments.toArray(String[]::new));
    }
}
