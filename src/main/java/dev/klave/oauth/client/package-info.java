/**
 * The OAuth clients agents use (spec 3 §4 "Agent login"). Public clients registered dynamically
 * (RFC 7591, {@link dev.klave.oauth.client.Registration}): no secret is ever issued, at most 20
 * registrations a minute from one address and 10 000 registered clients; clients unused for 30
 * days, or never signed in with after a day, are deleted.
 *
 * <p>Clients identified by a metadata document (draft-ietf-oauth-client-id-metadata-document):
 * {@link dev.klave.oauth.client.ClientMetadataDocuments} checks a {@code client_id} URL, fetches the
 * document it names through {@link dev.klave.outbound.PinnedHttps} — https only, public addresses
 * only, checked for the connection itself, no redirects, 5 s, 64 KiB — validates it and keeps it
 * for an hour. It trusts nothing in a document beyond its own URL: the document must name itself,
 * be a public client's (auth method {@code none}, no secret), and declare its redirect URIs. Every
 * refusal is a {@link dev.klave.oauth.client.MetadataRefused} with a reason and the catalogue's text.
 *
 * <p>Every redirect URI passes {@link dev.klave.oauth.client.RedirectUris} when it is registered and
 * again when it is used, and matches one registered exactly (a loopback port excepted, RFC 8252 §7.3).
 */
package dev.klave.oauth.client;
