/**
 * What domain packages know of storage, and nothing more: the transaction boundary, the failures a
 * store call may raise, and the two cross-replica primitives (leases, rate windows). Implementations
 * live in {@code store}, which depends on the domain packages; the domain packages depend on this
 * package only, so storage never closes a cycle between them.
 */
package dev.klave.storage;
