package dev.klave.http;

/** Who may call a route (spec 1 §5 "Access classes"), enforced once, before the endpoint runs. */
public enum Access {
    /** Anyone. */
    ANONYMOUS,
    /** A valid {@code service_session} cookie of an enabled account; otherwise 401. */
    SESSION,
    /** A session of an administrator; otherwise 401 without a session, 403 with one. */
    ADMIN
    // No bearer kind: the routes that take a bearer token resolve it themselves, once, into the
    // domain's own type (/mcp into an agent, the proxy into a gateway.Bearer); their 401s carry
    // the route policy's challenge all the same.
}
