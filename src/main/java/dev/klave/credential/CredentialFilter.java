package dev.klave.credential;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.util.Optional;

/**
 * Which credentials a listing shows (empty: any): the owner's, those restricted to a cluster, those
 * in a state, and those whose name or owner's login contains {@code text} (any case).
 */
public record CredentialFilter(Optional<SubjectId> subject, Optional<ClusterId> cluster,
        Optional<CredentialStatus> status, Optional<String> text) {
    public static final CredentialFilter ANY = new CredentialFilter(Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty());

    public CredentialFilter {
        requireNonNull(subject, "subject is null");
        requireNonNull(cluster, "cluster is null");
        requireNonNull(status, "status is null");
        requireNonNull(text, "text is null");
    }

    public CredentialFilter ofSubject(SubjectId owner) {
        return new CredentialFilter(Optional.of(owner), cluster, status, text);
    }
}
