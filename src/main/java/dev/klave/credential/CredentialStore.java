package dev.klave.credential;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.storage.Keyset;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Storage of credentials, found by the hash of their token. */
public interface CredentialStore {
    void create(Credential credential);

    Optional<Credential> findById(String id);

    Optional<Credential> findByTokenHash(String tokenHash);

    /**
     * Up to {@code limit} credentials matching {@code filter}, newest first (then by id), after
     * {@code after} when given, each with its owner's login: one query whatever the number of rows.
     *
     * @param now the time against which {@code active} and {@code expired} are told apart
     */
    List<ListedCredential> list(CredentialFilter filter, Instant now, Optional<Keyset> after, int limit);

    /** The credentials {@code ids} name (those that exist), with their owners' logins, newest first: one query. */
    List<ListedCredential> findListed(Collection<String> ids);

    /** How many credentials valid at {@code now} each of {@code subjects} holds; a subject with none is absent. */
    Map<SubjectId, Integer> countActive(Collection<SubjectId> subjects, Instant now);

    /** Revokes one credential; false when it was revoked already or does not exist. */
    boolean revoke(String id, Instant at, Optional<String> by, Optional<String> reason);

    /** Revokes every valid credential of the subject; returns how many. */
    int revokeAllOf(SubjectId subject, Instant at, String reason);

    /** Revokes every valid credential restricted to the cluster; returns how many. */
    int revokeAllRestrictedTo(ClusterId cluster, Instant at, String reason);
}
