/**
 * The OAuth 2.1 authorization server of delegated agents (spec 3 §1 4, §4 "Agent login"): agent
 * sessions a person opens on the consent page, their authorization codes, access tokens (valid
 * only on {@code /mcp}, kept apart from the proxy's credentials so that the proxy cannot find
 * them) and rotating refresh tokens.
 */
package dev.klave.oauth;
