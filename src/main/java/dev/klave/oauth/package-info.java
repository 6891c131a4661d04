/**
 * The OAuth 2.1 authorization server for agents (spec 3 §4 "Agent login").
 *
 * <p>So far it owns OAuth clients identified by a metadata document
 * (draft-ietf-oauth-client-id-metadata-document): {@link dev.klave.oauth.ClientMetadataDocuments}
 * checks a {@code client_id} URL, fetches the document it names through
 * {@link dev.klave.outbound.PinnedHttps} — https only, public addresses only, checked for the
 * connection itself, no redirects, 5 s, 64 KiB — validates it and keeps it for an hour.
 *
 * <p>It trusts nothing in a document beyond its own URL: the document must name itself, be a
 * public client's (auth method {@code none}, no secret), and declare its redirect URIs, which the
 * authorization endpoint then matches. Every refusal is a {@link dev.klave.oauth.MetadataRefused}
 * with a reason and the catalogue's text, for a plain-text 400.
 */
package dev.klave.oauth;
