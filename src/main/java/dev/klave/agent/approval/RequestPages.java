package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.config.BaseUrl;
import java.util.regex.Pattern;

/**
 * The one builder of a request's page address. An id is checked to be one {@link RequestIds}
 * makes — its prefix, then base64url (RFC 4648 §5), all unreserved characters in a path segment
 * (RFC 3986 §2.3) — so it goes into the path as it is and nothing else can.
 */
public final class RequestPages {
    private static final Pattern ID = Pattern.compile("(" + RequestIds.WRITE + "|" + RequestIds.ACCESS
            + ")[A-Za-z0-9_-]{1,64}");

    private RequestPages() {}

    /** Spec 3 §2: {@code {base_url}/agents/requests/<id>}, where the decider decides. */
    public static String decide(BaseUrl base, String requestId) {
        return requireNonNull(base, "base is null").resolve("/agents/requests/" + checked(requestId));
    }

    /** Issue 41: {@code {base_url}/acceso/solicitudes/<id>}, an access request's page for its requester too. */
    public static String access(BaseUrl base, String requestId) {
        return requireNonNull(base, "base is null").resolve("/acceso/solicitudes/" + checked(requestId));
    }

    /** @throws IllegalArgumentException for anything {@link RequestIds} does not make */
    static String checked(String requestId) {
        if (requestId == null || !ID.matcher(requestId).matches()) {
            throw new IllegalArgumentException("not a request id");
        }
        return requestId;
    }
}
