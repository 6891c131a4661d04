package dev.klave.http;

/** How a route's refusals are written. */
public enum ErrorFormat {
    /** {@code {"error": "<mensaje>"}} (spec 1 §7 "API errors"). */
    JSON,
    /**
     * The message as {@code text/plain}: for pages a person's browser lands on (the OAuth
     * authorization endpoint), where JSON would be read by nobody.
     */
    PLAIN_TEXT
}
