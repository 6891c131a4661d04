/**
 * What administrators are told about the installation as a whole: notices (the provider's
 * discovery failing, people linked by e-mail this week, the forge's two-factor setting unreadable)
 * and health checks (database, an administrator able to sign in, OIDC discovery, the forge sync).
 * Everything is computed from shared rows when asked, so every replica answers alike.
 */
package dev.klave.installation;
