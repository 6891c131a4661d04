package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/** A registered cluster (spec 1 §2 "Cluster"); {@code sealedSecrets} is the encrypted bootstrap JSON. */
public record Cluster(
        ClusterId id,
        String name,
        Instant createdAt,
        Optional<String> sealedSecrets,
        Optional<Instant> tokensSetAt,
        Optional<Instant> lastReconciledAt,
        Optional<String> lastError) {
    public Cluster {
        requireNonNull(id, "id is null");
        requireNonNull(name, "name is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(sealedSecrets, "sealedSecrets is null");
        requireNonNull(tokensSetAt, "tokensSetAt is null");
        requireNonNull(lastReconciledAt, "lastReconciledAt is null");
        requireNonNull(lastError, "lastError is null");
    }

    public boolean hasTokens() {
        return sealedSecrets.isPresent();
    }

    /** {@code pending} before the bootstrap JSON, then {@code ready} or {@code error} after the last pass. */
    public ClusterStatus status() {
        if (!hasTokens()) {
            return ClusterStatus.PENDING;
        }
        return lastError.isPresent() ? ClusterStatus.ERROR : ClusterStatus.READY;
    }
}
