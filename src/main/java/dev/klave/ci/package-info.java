/**
 * The CI token exchange (spec 1 §1.6, §4 "CI and forge", "CI trust rules").
 *
 * <p>A forge Actions job proves who it is with the ID token its runner mints; Klave trades that
 * token, once, for a short-lived credential of a bot. What is trusted: the issuer's signing keys,
 * fetched from its discovery document (RS256 only), and the trust rules an administrator wrote,
 * which name repositories by numeric owner and repository ids — names can be re-registered by
 * someone else, ids cannot. What is refused: any other algorithm, any other issuer or audience
 * than {@code SERVICE_BASE_URL} character for character, an expired token, a token already
 * exchanged on any replica (its {@code jti} is kept in the database until it expires), a bot
 * that is disabled or holds no active grant. A policy refusal (403) leaves the token unspent so
 * the job can retry once the configuration is fixed. Rules that could never change an outcome are
 * refused when written: a ref not written in full (the claim always is), and a rule that repeats
 * another's bot, repository, ref and environment (a unique index holds this across replicas).
 */
package dev.klave.ci;
