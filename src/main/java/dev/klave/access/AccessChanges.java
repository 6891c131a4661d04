package dev.klave.access;

/**
 * A counter shared by every replica that moves forward whenever something that gives proxy access
 * changes: a credential revoked or deleted, a subject disabled, a grant created, revoked or
 * deleted, a cluster's tokens replaced or the cluster deleted. A credential check made while the
 * counter had value {@code g} still holds while it has {@code g} (and nothing in it expired).
 */
public interface AccessChanges {
    /** The current value; one read of one row. */
    long generation();
}
