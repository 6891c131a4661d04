package dev.klave.http;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What the edge does for a route before and around its endpoint: how large and what kind of body
 * it reads, which origins it accepts, whether other sites may read its answers (CORS), how its
 * refusals are written, and the challenge every 401 of it carries.
 *
 * @param bodyLimit bytes; a larger body is refused with 413 and the connection closed
 * @param crossOriginReads whether answers carry {@code Access-Control-Allow-Origin: *} and
 *     preflight requests are answered (spec 3: the metadata documents and the token endpoint)
 * @param challenge the {@code WWW-Authenticate} value every 401 of the route carries (RFC 6750 §3)
 * @param endsWithClient whether the endpoint's work is interrupted when the client closes the
 *     connection before the answer (spec 3 §4: a tool call whose client left claims nothing)
 */
public record RoutePolicy(int bodyLimit, BodyType body, OriginRule origin, boolean crossOriginReads,
        ErrorFormat errors, Optional<String> challenge, boolean endsWithClient) {
    /** Spec 1 §8: JSON bodies under /api up to 64 KiB. */
    public static final int API_BODY_LIMIT = 64 * 1024;
    /** Spec 1 §8 (webhook) and spec 3 (/mcp): 1 MiB. */
    public static final int LARGE_BODY_LIMIT = 1024 * 1024;

    /** The {@code /api} conventions of spec 1 §4. */
    public static final RoutePolicy API = new RoutePolicy(API_BODY_LIMIT, BodyType.JSON,
            OriginRule.SAME_ORIGIN_FOR_WRITES, false, ErrorFormat.JSON, Optional.empty(), false);

    /** Spec 1 §4 "CI and forge": no session, cookies or origin check. */
    public static final RoutePolicy MACHINE = new RoutePolicy(API_BODY_LIMIT, BodyType.JSON, OriginRule.ANY,
            false, ErrorFormat.JSON, Optional.empty(), false);

    public RoutePolicy {
        if (bodyLimit < 0) {
            throw new IllegalArgumentException("bodyLimit must not be negative");
        }
        requireNonNull(body, "body is null");
        requireNonNull(origin, "origin is null");
        requireNonNull(errors, "errors is null");
        requireNonNull(challenge, "challenge is null");
    }

    public RoutePolicy withBody(BodyType type, int limit) {
        return new RoutePolicy(limit, type, origin, crossOriginReads, errors, challenge, endsWithClient);
    }

    public RoutePolicy withOrigin(OriginRule rule) {
        return new RoutePolicy(bodyLimit, body, rule, crossOriginReads, errors, challenge, endsWithClient);
    }

    public RoutePolicy readableCrossOrigin() {
        return new RoutePolicy(bodyLimit, body, origin, true, errors, challenge, endsWithClient);
    }

    public RoutePolicy withErrors(ErrorFormat format) {
        return new RoutePolicy(bodyLimit, body, origin, crossOriginReads, format, challenge, endsWithClient);
    }

    public RoutePolicy withChallenge(String value) {
        return new RoutePolicy(bodyLimit, body, origin, crossOriginReads, errors, Optional.of(value), endsWithClient);
    }

    public RoutePolicy endingWithClient() {
        return new RoutePolicy(bodyLimit, body, origin, crossOriginReads, errors, challenge, true);
    }
}
