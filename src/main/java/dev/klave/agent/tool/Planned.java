package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.gateway.Call.Intent;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import java.util.Optional;

/**
 * A write as a tool plans it before sending anything: what it is (verb, kind, namespace, name),
 * the request that makes it, and — when it must wait for a person — the same request as a dry
 * run, and the request to hold, which carries a precondition (spec 3 §3: apply fails with 409 when
 * the object changed since the dry run, delete when it was recreated).
 */
record Planned(String verb, Kind kind, String namespace, String name, Request request, Precondition precondition,
        Renderer renderer) {
    /**
     * One request to the cluster, typed: the path's segments and the query's pairs are encoded once,
     * when it is sent. A {@link Intent#PREVIEW} is the dry run of a held write, which the gateway sends
     * only with {@code dryRun=All} on the wire.
     */
    record Request(Method method, ClusterPath path, Query query, Optional<String> body, Optional<String> contentType,
            Intent intent) {
        Request {
            requireNonNull(method, "method is null");
            requireNonNull(intent, "intent is null");
            requireNonNull(path, "path is null");
            requireNonNull(query, "query is null");
            requireNonNull(body, "body is null");
            requireNonNull(contentType, "contentType is null");
        }

        Request(Method method, ClusterPath path, Query query, Optional<String> body, Optional<String> contentType) {
            this(method, path, query, body, contentType, Intent.ACT);
        }

        /** The same request as a dry run (spec 3 §4 "Write approval flow" 1). */
        Request dryRun() {
            return new Request(method, path, query.with("dryRun", Query.DRY_RUN_ALL), body, contentType,
                    Intent.PREVIEW);
        }

        Request withBody(String value) {
            return new Request(method, path, query, Optional.of(value), contentType, intent);
        }
    }

    /** The request to hold, given the dry run's answer and the object as it is now. */
    @FunctionalInterface
    interface Precondition {
        Request held(Request request, JsonNode dryRun, Optional<JsonNode> current);
    }

    /** How a successful answer is shown. */
    @FunctionalInterface
    interface Renderer {
        String render(JsonNode answer);
    }

    Planned {
        requireNonNull(verb, "verb is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(request, "request is null");
        requireNonNull(precondition, "precondition is null");
        requireNonNull(renderer, "renderer is null");
    }

    /** {@code <resource>/<name>}, as the approval message names it. */
    String target() {
        return kind.plural() + "/" + name;
    }
}
