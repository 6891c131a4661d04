package dev.klave.ci;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import java.time.Instant;
import java.util.Optional;

/**
 * Spec 1 §2 "CI trust rule": jobs of one repository (numeric ids), optionally only for one ref
 * and one environment, may obtain credentials of one bot. An empty ref or environment matches any.
 */
public record TrustRule(
        String id,
        String name,
        SubjectId botSubjectId,
        long repositoryOwnerId,
        long repositoryId,
        String ref,
        String environment,
        Instant createdAt,
        Optional<String> createdBy) {
    public TrustRule {
        requireNonNull(id, "id is null");
        requireNonNull(name, "name is null");
        requireNonNull(botSubjectId, "botSubjectId is null");
        requireNonNull(ref, "ref is null");
        requireNonNull(environment, "environment is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(createdBy, "createdBy is null");
        if (repositoryOwnerId <= 0 || repositoryId <= 0) {
            throw new IllegalArgumentException("repository ids must be positive");
        }
    }

    /** Whether a job with these claims is covered (spec 1 §4 "CI exchange rules" 2 and 6). */
    public boolean matches(ActionsClaims claims) {
        return claims.repositoryOwnerId().equals(Long.toString(repositoryOwnerId))
                && claims.repositoryId().equals(Long.toString(repositoryId))
                && (ref.isEmpty() || ref.equals(claims.ref()))
                && (environment.isEmpty() || environment.equals(claims.environment()));
    }
}
