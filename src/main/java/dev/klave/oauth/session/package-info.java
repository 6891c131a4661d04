/**
 * Agent sessions (spec 3 §4 "Agent login"): what a person opens on the consent page — a client,
 * the permissions chosen (a subset of the person's own), how long — and its authorization codes,
 * access tokens (valid only on {@code /mcp}, kept apart from the proxy's credentials so that the
 * proxy cannot find them) and rotating refresh tokens. {@link dev.klave.oauth.session.SessionBearers}
 * is what {@code /mcp} resolves a bearer with; the routes under {@code /api/agents/sessions} let
 * people and administrators see and end sessions.
 */
package dev.klave.oauth.session;
