package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import java.util.Optional;

/**
 * The call to run once approved, typed as the tool made it: the method, the path's segments and
 * the query's pairs (each encoded once, when sent), the body text and its content type. Stored in
 * this form — never as a target to split again — so what runs is what the person saw previewed
 * (spec 3 §4 "Write approval flow" 3). A held call is the write itself: never a dry run.
 */
public record HeldCall(Method method, ClusterPath path, Query query, Optional<String> body,
        Optional<String> contentType) {
    public HeldCall {
        requireNonNull(method, "method is null");
        requireNonNull(path, "path is null");
        requireNonNull(query, "query is null");
        requireNonNull(body, "body is null");
        requireNonNull(contentType, "contentType is null");
        if (!query.all("dryRun").isEmpty()) {
            throw new IllegalArgumentException("a held call is the write itself, not a dry run");
        }
    }

    /** The target as sent, for people reading the row: the encoded path and query. */
    public String target() {
        return path.encoded() + query.suffix();
    }
}
