/**
 * Sign-in methods behind one outcome: an opened session, or a failure. Password sign-in
 * ({@link dev.klave.login.PasswordLogin}) refuses every failure with the same 401 and the same cost
 * in time (spec 1 §5 "Password login"). External providers — the forge App
 * ({@code login.forge}), OIDC next — implement {@link dev.klave.login.SignInMethod} and share
 * {@link dev.klave.login.ExternalSignIn}: the signed state cookie ({@link dev.klave.login.StateCookie}),
 * the per-address limit shared with passwords, how an account is found or linked, the session, the
 * events, and the redirect to {@code /login?error=<code>} on failure (spec 1 §7 "Forge login
 * failure codes"). This package also answers which methods are on ({@code GET /api/auth/methods})
 * and derives the sign-in mode once from the settings ({@link dev.klave.login.SignInMethods}).
 */
package dev.klave.login;
