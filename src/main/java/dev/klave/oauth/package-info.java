/**
 * The OAuth 2.1 authorization server of delegated agents (spec 3 §1 4, §4 "Agent login"), as its
 * endpoints: {@code /oauth/authorize} and the consent page a person answers, {@code /oauth/token}
 * and {@code /oauth/revoke}, the discovery documents (RFC 9728, RFC 8414, with the base URL's path
 * inserted). Its refusals are in the OAuth shape ({@code {error, error_description}}), the RFC's
 * code with Klave's Spanish text.
 *
 * <p>Two packages below it hold what the endpoints work on, and neither knows the endpoints:
 * {@link dev.klave.oauth.client} the clients (registered or named by a metadata document) and the
 * redirect URI rules, {@link dev.klave.oauth.session} the agent sessions a person opens and their
 * codes and tokens.
 */
package dev.klave.oauth;
