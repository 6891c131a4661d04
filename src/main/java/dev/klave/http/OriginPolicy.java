package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.config.BaseUrl;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Refuses state-changing requests that a browser sent from another site (spec 1 §4: 403
 * {@code petición de otro origen rechazada}). A browser marks such requests with an {@code Origin}
 * that is not ours or with {@code Sec-Fetch-Site: cross-site}; clients that send neither (curl,
 * kubectl, scripts) pass, since no browser page can make a request without them.
 */
public final class OriginPolicy {
    private static final Set<String> STATE_CHANGING = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final String ownOrigin;

    public OriginPolicy(BaseUrl baseUrl) {
        this.ownOrigin = requireNonNull(baseUrl, "baseUrl is null").origin();
    }

    public boolean refuses(String method, Optional<String> origin, Optional<String> fetchSite) {
        return refuses(OriginRule.SAME_ORIGIN_FOR_WRITES, method, origin, fetchSite);
    }

    /** Whether {@code rule} refuses a request with these headers. */
    public boolean refuses(OriginRule rule, String method, Optional<String> origin, Optional<String> fetchSite) {
        if (rule == OriginRule.ANY) {
            return false;
        }
        if (rule == OriginRule.SAME_ORIGIN_FOR_WRITES && !STATE_CHANGING.contains(method)) {
            return false;
        }
        if (origin.isPresent() && !origin.get().strip().toLowerCase(Locale.ROOT).equals(ownOrigin)) {
            return true;
        }
        return fetchSite.map(site -> site.strip().equalsIgnoreCase("cross-site")).orElse(false);
    }
}
