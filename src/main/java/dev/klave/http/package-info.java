/**
 * The HTTP edge: one Vert.x server on one port for the API, health, the proxy and the web
 * interface.
 *
 * <p>Everything a request must pass before domain code sees it is decided here, once: the route
 * (404, 405 with {@code Allow}), the origin of browser writes (403), the body size (413) and its
 * strict JSON form (400), and the client address ({@code X-Forwarded-For} only from
 * {@code SERVICE_TRUSTED_PROXIES}). Domain work then runs on its own virtual thread, never on an
 * event loop, and its answer goes back to the connection's event loop. Refusals become the
 * specification's status and Spanish text; anything unexpected becomes 500 {@code error interno}
 * with the cause in the log only (spec 1 §4 "Conventions for /api", §7).
 */
package dev.klave.http;
