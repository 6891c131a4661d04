package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The call to run once approved: the method, the target (path and query exactly as sent to the
 * cluster), the body text and its content type. Stored as the tool made it, so what runs is what
 * the person saw previewed (spec 3 §4 "Write approval flow" 3).
 */
public record HeldCall(String method, String target, Optional<String> body, Optional<String> contentType) {
    private static final Pattern METHOD = Pattern.compile("[A-Z]+");

    public HeldCall {
        requireNonNull(method, "method is null");
        requireNonNull(target, "target is null");
        requireNonNull(body, "body is null");
        requireNonNull(contentType, "contentType is null");
        if (!METHOD.matcher(method).matches()) {
            throw new IllegalArgumentException("a method is upper-case letters: " + method);
        }
        if (!target.startsWith("/")) {
            throw new IllegalArgumentException("a target is a path on the cluster: " + target);
        }
    }
}
