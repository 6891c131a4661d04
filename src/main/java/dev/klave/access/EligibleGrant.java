package dev.klave.access;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.Optional;

/**
 * A grant a person holds as eligible rather than active (issue 41, the PIM model): it reaches
 * nothing by itself; the person activates it for up to {@code maxMinutes} with a reason, at once or
 * after a decider's approval ({@code needsApproval}), and the activation becomes an ordinary grant
 * that ends by itself. Never {@code cluster-admin}.
 */
public record EligibleGrant(String id, SubjectId subjectId, ClusterId clusterId, Tier tier, Scope scope,
        int maxMinutes, boolean needsApproval, String note, Instant createdAt, Optional<String> createdBy,
        Optional<Instant> revokedAt, Optional<String> revokedBy) {
    /** An eligible grant's maximum: 15 minutes to a day. */
    public static final int MIN_MINUTES = 15;
    public static final int MAX_MINUTES = 1440;

    public EligibleGrant {
        requireNonNull(id, "id is null");
        requireNonNull(subjectId, "subjectId is null");
        requireNonNull(clusterId, "clusterId is null");
        requireNonNull(tier, "tier is null");
        requireNonNull(scope, "scope is null");
        requireNonNull(note, "note is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(createdBy, "createdBy is null");
        requireNonNull(revokedAt, "revokedAt is null");
        requireNonNull(revokedBy, "revokedBy is null");
        if (!Authority.delegable(tier)) {
            throw new IllegalArgumentException("cluster-admin is never eligible");
        }
        if (maxMinutes < MIN_MINUTES || maxMinutes > MAX_MINUTES) {
            throw new IllegalArgumentException("an eligible grant's maximum is 15 to 1440 minutes");
        }
    }

    /** Whether it can be activated: not revoked. */
    public boolean active() {
        return revokedAt.isEmpty();
    }
}
