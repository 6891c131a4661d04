package dev.klave.http;

/** How a route's refusals are written. */
public enum ErrorFormat {
    /** {@code {"error": "<mensaje>"}} (spec 1 §7 "API errors"). */
    JSON,
    /**
     * The message as {@code text/plain}: for pages a person's browser lands on (the OAuth
     * authorization endpoint), where JSON would be read by nobody.
     */
    PLAIN_TEXT,
    /**
     * {@code {"error": "<code>", "error_description": "<mensaje>"}} for the OAuth endpoints that
     * clients read by program (RFC 6749 §5.2, RFC 7591 §3.2.2): the RFC's code, Klave's text.
     */
    OAUTH
}
