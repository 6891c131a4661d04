/**
 * Sign-in through the forge App and automatic offboarding (spec 1 §5 "Forge login checks",
 * "Automatic offboarding"): the forge's REST API ({@link dev.klave.login.forge.ForgeApi}, over
 * HTTPS with 5 s timeouts, no token ever logged), the forge's half of a sign-in
 * ({@link dev.klave.login.forge.ForgeSignIn}), the hourly member sync that replicas take turns at,
 * the signed webhook, and the forge routes. The flow every provider shares is
 * {@link dev.klave.login.ExternalSignIn}.
 */
package dev.klave.login.forge;
