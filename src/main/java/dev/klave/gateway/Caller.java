package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Subject;
import dev.klave.cluster.BootstrapSecrets;
import java.time.Instant;
import java.util.List;

/**
 * A request that passed every credential check: who it acts as, and how to reach the cluster.
 * The check holds while {@link dev.klave.access.AccessChanges} still has {@code generation} and until
 * {@code validUntil}, when the credential or one of the grants behind the groups expires.
 */
public record Caller(Subject subject, Bearer bearer, String userName, List<String> groups,
        BootstrapSecrets cluster, long generation, Instant validUntil) {
    public Caller {
        requireNonNull(subject, "subject is null");
        requireNonNull(bearer, "bearer is null");
        requireNonNull(userName, "userName is null");
        groups = List.copyOf(groups);
        requireNonNull(cluster, "cluster is null");
        requireNonNull(validUntil, "validUntil is null");
    }

    /**
     * Whether this check still holds at access generation {@code current} and at {@code now}: the
     * one rule by which a kept check is reused and an open call is left open without a full check.
     */
    public boolean holdsAt(long current, Instant now) {
        return generation == current && now.isBefore(validUntil);
    }
}
