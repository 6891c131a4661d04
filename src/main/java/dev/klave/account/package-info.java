/**
 * Accounts: people and bots (spec 1 §2 "Subject"), and the single-use links that let a person set
 * a password or link a sign-in method (spec 1 §2 "Link token").
 *
 * <p>Owns: the login rules (immutable, never reused), account creation and the break-glass mark,
 * which only the CLI may set. Trusts: nothing a client says about who it is. Refuses: a taken
 * login, whether its account is enabled or not.
 */
package dev.klave.account;
