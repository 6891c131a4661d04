/**
 * The OAuth 2.1 authorization server of delegated agents (spec 3 §1 4, §4 "Agent login"): agent
 * sessions a person opens on the consent page, their authorization codes, access tokens (valid
 * only on {@code /mcp}, kept apart from the proxy's credentials so that the proxy cannot find
 * them) and rotating refresh tokens.
 *
 * <p>OAuth clients identified by a metadata document (draft-ietf-oauth-client-id-metadata-document):
 * {@link dev.klave.oauth.ClientMetadataDocuments} checks a {@code client_id} URL, fetches the
 * document it names through {@link dev.klave.outbound.PinnedHttps} — https only, public addresses
 * only, checked for the connection itself, no redirects, 5 s, 64 KiB — validates it and keeps it
 * for an hour. It trusts nothing in a document beyond its own URL: the document must name itself,
 * be a public client's (auth method {@code none}, no secret), and declare its redirect URIs. Every
 * refusal is a {@link dev.klave.oauth.MetadataRefused} with a reason and the catalogue's text.
 *
 * <p>The discovery documents (RFC 9728, RFC 8414, with the base URL's path inserted), public
 * clients registered dynamically (RFC 7591) and the redirect URI rules every client is held to.
 *
 * <p>It trusts nothing a client sends: every redirect URI passes {@link dev.klave.oauth.RedirectUris}
 * when it is registered and again when it is used, and matches one registered exactly (a loopback
 * port excepted, RFC 8252 §7.3). It refuses confidential clients (no secret is ever issued), more
 * than 20 registrations a minute from one address and more than 10 000 registered clients; clients
 * unused for 30 days are deleted. Its refusals are in the OAuth shape
 * ({@code {error, error_description}}), the RFC's code with Klave's Spanish text.
 */
package dev.klave.oauth;
