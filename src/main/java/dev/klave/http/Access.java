package dev.klave.http;

/** Who may call a route (spec 1 §5 "Access classes"), enforced once, before the endpoint runs. */
public enum Access {
    /** Anyone. */
    ANONYMOUS,
    /** A valid {@code service_session} cookie of an enabled account; otherwise 401. */
    SESSION,
    /** A session of an administrator; otherwise 401 without a session, 403 with one. */
    ADMIN,
    /**
     * A bearer token in {@code Authorization}; otherwise 401, with the route policy's
     * {@code WWW-Authenticate} challenge when it names one.
     */
    BEARER
}
