package dev.klave.ci;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * The claims of a verified Actions ID token that the exchange uses. Ids stay strings, exactly as
 * the forge sends them; {@code environment} is empty when the job declares none.
 */
public record ActionsClaims(
        String jti,
        Instant expiresAt,
        String repositoryOwnerId,
        String repositoryId,
        String repository,
        String ref,
        String environment,
        String runId,
        String actor) {
    public ActionsClaims {
        requireNonNull(jti, "jti is null");
        requireNonNull(expiresAt, "expiresAt is null");
        requireNonNull(repositoryOwnerId, "repositoryOwnerId is null");
        requireNonNull(repositoryId, "repositoryId is null");
        requireNonNull(repository, "repository is null");
        requireNonNull(ref, "ref is null");
        requireNonNull(environment, "environment is null");
        requireNonNull(runId, "runId is null");
        requireNonNull(actor, "actor is null");
    }

    /** Spec 1 §4 "CI exchange rules" 4: {@code <owner>/<repo>@<ref> · run <run_id> · <actor>}. */
    public String credentialNote() {
        return repository + "@" + ref + " · run " + runId + " · " + actor;
    }
}
