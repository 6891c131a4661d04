/**
 * The OAuth 2.1 authorization server of delegated agents (spec 3 §4 "Agent login"): the discovery
 * documents (RFC 9728, RFC 8414, with the base URL's path inserted), public clients registered
 * dynamically (RFC 7591) and the redirect URI rules every client is held to.
 *
 * <p>It trusts nothing a client sends: every redirect URI passes {@link dev.klave.oauth.RedirectUris}
 * when it is registered and again when it is used, and matches one registered exactly (a loopback
 * port excepted, RFC 8252 §7.3). It refuses confidential clients (no secret is ever issued), more
 * than 20 registrations a minute from one address and more than 10 000 registered clients; clients
 * unused for 30 days are deleted. Its refusals are in the OAuth shape
 * ({@code {error, error_description}}), the RFC's code with Klave's Spanish text.
 */
package dev.klave.oauth;
