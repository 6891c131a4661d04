package dev.klave.gateway;

import dev.klave.cluster.ClusterId;

/** What {@link OpenCalls} asks of the credential checks; {@link CredentialChecks} answers it. */
interface CallChecks {
    /** The shared access generation (see {@link dev.klave.access.AccessChanges}). */
    long generation();

    /**
     * The full check of a bearer known by its id, on one cluster.
     *
     * @throws dev.klave.messages.Refusal when the credential no longer passes
     * @throws dev.klave.storage.DatabaseUnavailableException when the database cannot say
     */
    Caller recheck(String bearerId, ClusterId cluster, long generation);
}
