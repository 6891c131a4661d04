package dev.klave.http;

/** How the edge reads a route's request body before the endpoint sees it. */
public enum BodyType {
    /** JSON, parsed strictly by the endpoint ({@link ApiRequest#json}). */
    JSON,
    /**
     * {@code application/x-www-form-urlencoded} (RFC 6749 §4.1.3): decoded by the edge into
     * {@link ApiRequest#form}; another content type is refused with 415.
     */
    FORM,
    /** Bytes exactly as received, for endpoints that check a signature over them. */
    RAW
}
