package dev.klave.access;

/**
 * The access generation: one number shared by every replica (the {@code access_changes} row) that
 * moves forward whenever something that gives access to a cluster changes — a credential revoked or
 * deleted, a subject disabled, a grant created, revoked or deleted, an agent session ended, roles
 * lent or taken back, a cluster's tokens replaced or the cluster deleted. A check made at generation
 * {@code g} still holds while the generation is {@code g} (and nothing in it expired). One name in
 * the code, the database and the documents: "generation" ({@code Caller.generation()}).
 */
public interface AccessChanges {
    /** The current value; one read of one row. */
    long generation();
}
