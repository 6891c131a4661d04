package dev.klave.http;

/** Which requests a browser on another site may make to a route. */
public enum OriginRule {
    /** No check: the route carries its own proof (an ID token, a signature, a bearer token). */
    ANY,
    /**
     * Spec 1 §4: state-changing requests from another origin get 403; reads pass, since a
     * cross-site page cannot read the answer without CORS anyway.
     */
    SAME_ORIGIN_FOR_WRITES,
    /** Spec 3 §7: any request whose {@code Origin} is not the base URL's gets 403 (DNS rebinding). */
    SAME_ORIGIN_ALWAYS
}
