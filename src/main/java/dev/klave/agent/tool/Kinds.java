package dev.klave.agent.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.cluster.KubernetesApi;
import dev.klave.gateway.ClusterExchange;
import dev.klave.gateway.Exchanged;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.KubeNames;
import dev.klave.kube.Method;
import dev.klave.messages.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kind resolution through the cluster's own discovery (spec 3 §4 "Tools"): the two aggregated
 * discovery requests ({@code /api} and {@code /apis}, Kubernetes 1.30+), each an audited request
 * of the tool. Only a group's preferred version counts, unless {@code api_version} names another;
 * a name two groups answer to is the core group's when one of them is core (as kubectl reads it),
 * and otherwise needs {@code api_version}.
 */
final class Kinds {
    static final String AGGREGATED = KubernetesApi.AGGREGATED;

    private Kinds() {}

    /** Every kind the cluster serves (subresources are listed on their parent). */
    static List<Kind> discover(ClusterCalls calls) throws ToolError, ClusterRefusal, InterruptedException {
        List<Kind> kinds = new ArrayList<>();
        for (String root : List.of("api", "apis")) {
            Optional<DiscoveryCache.Entry> known = calls.discovery().get(calls.cluster(), root);
            Exchanged.Answered answered = calls.send(Method.GET, ClusterPath.of(root), Map.of(), known
                    .map(entry -> ClusterExchange.Outgoing.ifNoneMatch(AGGREGATED, entry.etag()))
                    .orElseGet(() -> new ClusterExchange.Outgoing(Optional.empty(), Optional.empty(), AGGREGATED)));
            if (answered.status() == 304 && known.isPresent()) {
                // Unchanged since the last answer (issue 43): the kinds read from it serve again.
                kinds.addAll(known.get().kinds());
                continue;
            }
            JsonNode list = ClusterCalls.json(answered);
            if (!list.path("kind").asText().equals("APIGroupDiscoveryList")) {
                // The cluster answered, with the legacy document: it is reachable, and too old.
                throw ToolError.of(Message.AGENT_DISCOVERY_UNSUPPORTED, Map.of("cluster", calls.cluster().value()));
            }
            List<Kind> listed = new ArrayList<>();
            for (JsonNode group : list.path("items")) {
                read(group, listed);
            }
            calls.discovery().put(calls.cluster(), root, answered.headers().firstValue("ETag"), listed);
            kinds.addAll(listed);
        }
        return kinds;
    }

    private static void read(JsonNode group, List<Kind> kinds) {
        String groupName = group.path("metadata").path("name").asText("");
        // Versions come preferred first; firstOfGroup reads the order.
        for (JsonNode version : group.path("versions")) {
            for (JsonNode resource : version.path("resources")) {
                List<String> shortNames = new ArrayList<>();
                resource.path("shortNames").forEach(name -> shortNames.add(name.asText()));
                List<String> subresources = new ArrayList<>();
                resource.path("subresources").forEach(sub -> subresources.add(sub.path("subresource").asText()));
                String kind = resource.path("responseKind").path("kind").asText("");
                String plural = resource.path("resource").asText();
                String versionName = version.path("version").asText();
                // Parts of every path to this kind: a discovery entry that breaks the Kubernetes
                // rules for them is not a kind any tool can name.
                if (kind.isEmpty() || !KubeNames.isGroupOrResource(plural) || !KubeNames.isVersion(versionName)
                        || !groupName.isEmpty() && !KubeNames.isGroupOrResource(groupName)) {
                    continue;
                }
                kinds.add(new Kind(groupName, versionName, plural,
                        resource.path("singularResource").asText(kind.toLowerCase(java.util.Locale.ROOT)), kind,
                        shortNames, resource.path("scope").asText().equals("Namespaced"), subresources));
            }
        }
    }

    /** The kind a call's {@code kind} and {@code api_version} arguments name. */
    static Kind named(ClusterCalls calls, Arguments arguments) throws ToolError, ClusterRefusal, InterruptedException {
        return resolve(calls, arguments.need(Catalogue.KIND), arguments.get(Catalogue.API_VERSION));
    }

    /** One object, as a call's {@code kind}, {@code api_version}, {@code namespace} and {@code name} name it. */
    record Target(Kind kind, String namespace, String name) {
        ClusterPath path() {
            return kind.object(namespace, name);
        }
    }

    static Target target(ClusterCalls calls, Arguments arguments)
            throws ToolError, ClusterRefusal, InterruptedException {
        Kind kind = named(calls, arguments);
        return new Target(kind, ReadTools.namespaceOf(kind, arguments), arguments.need(Catalogue.NAME));
    }

    /** The one kind {@code name} means, with {@code apiVersion} when given. */
    static Kind resolve(ClusterCalls calls, String name, Optional<String> apiVersion)
            throws ToolError, ClusterRefusal, InterruptedException {
        return pick(discover(calls), name, apiVersion, calls.cluster().value());
    }

    static Kind pick(List<Kind> kinds, String name, Optional<String> apiVersion, String cluster) throws ToolError {
        List<Kind> matching = new ArrayList<>();
        for (Kind kind : kinds) {
            if (!kind.answersTo(name)) {
                continue;
            }
            if (apiVersion.isPresent() ? kind.apiVersion().equals(apiVersion.get())
                    || kind.group().equals(apiVersion.get()) : firstOfGroup(kinds, kind)) {
                matching.add(kind);
            }
        }
        if (matching.isEmpty()) {
            throw ToolError.of(Message.AGENT_KIND_UNKNOWN, ordered("cluster", cluster, "kind",
                    name + apiVersion.map(version -> " (" + version + ")").orElse("")));
        }
        if (matching.size() == 1) {
            return matching.get(0);
        }
        Optional<Kind> core = matching.stream().filter(kind -> kind.group().isEmpty()).findFirst();
        if (core.isPresent() && apiVersion.isEmpty()) {
            return core.get();
        }
        List<String> versions = matching.stream().map(Kind::apiVersion).toList();
        throw ToolError.of(Message.AGENT_KIND_AMBIGUOUS, ordered("kind", name, "api_versions",
                String.join(", ", versions)));
    }

    /** Whether {@code kind} is the first version its group lists of its plural (the preferred one). */
    private static boolean firstOfGroup(List<Kind> kinds, Kind kind) {
        for (Kind other : kinds) {
            if (other.group().equals(kind.group()) && other.plural().equals(kind.plural())) {
                return other == kind;
            }
        }
        return false;
    }

    static Map<String, Object> ordered(String first, Object a, String second, Object b) {
        Map<String, Object> params = new java.util.LinkedHashMap<>();
        params.put(first, a);
        params.put(second, b);
        return params;
    }
}
