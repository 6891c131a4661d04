package dev.klave.access;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * Which grants came from an approved access request (issue 41): the grants screen marks them, with
 * the request's reason and who approved it, so standing access reads as the exception it should be.
 */
@FunctionalInterface
public interface GrantOrigins {
    /** The request behind each of these grants that has one, by grant id. */
    Map<String, Origin> of(Collection<String> grantIds);

    /** No grant came from a request. */
    GrantOrigins NONE = grantIds -> Map.of();

    /**
     * @param origin {@code person}, {@code eligible} (an activation) or {@code agent} (a bot's)
     * @param approvedBy who approved it (the person themselves for an activation without approval)
     */
    record Origin(String requestId, String origin, String reason, Optional<String> approvedBy) {
        public Origin {
            requireNonNull(requestId, "requestId is null");
            requireNonNull(origin, "origin is null");
            requireNonNull(reason, "reason is null");
            requireNonNull(approvedBy, "approvedBy is null");
        }
    }
}
