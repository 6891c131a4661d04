/**
 * Sign-in through any OpenID Connect provider (spec 2): the provider's discovery document and keys
 * ({@link dev.klave.login.oidc.OidcProvider}, fetched in the background, never blocking start-up),
 * the provider's half of a sign-in ({@link dev.klave.login.oidc.OidcSignIn}: PKCE, the code
 * exchange, the ID token checks, userinfo, the e-mail and domain rules), the first sign-in by
 * e-mail ({@link dev.klave.login.oidc.EmailLinking}) and the OIDC routes. Every call to the
 * provider trusts the public CAs plus {@code SSL_CERT_FILE}; provider tokens never leave the
 * callback.
 */
package dev.klave.login.oidc;
