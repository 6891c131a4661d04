/**
 * Sign-in methods, one per sub-package or class behind the same outcome: an opened session, or a
 * refusal that says nothing about why (spec 1 §5 "Password login"). This package also answers
 * which methods are on ({@code GET /api/auth/methods}).
 *
 * <p>Trusts: nothing in the request but the login and password. Refuses: every failure with the
 * same 401 and the same cost in time; sign-in attempts beyond the per-address and per-account
 * limits with 429.
 */
package dev.klave.login;
