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
 */
package dev.klave.oauth;
