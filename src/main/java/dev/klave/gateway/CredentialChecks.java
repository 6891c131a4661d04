package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.access.AccessChanges;
import dev.klave.access.Grant;
import dev.klave.access.GrantStore;
import dev.klave.access.KubernetesIdentity;
import dev.klave.account.Subject;
import dev.klave.account.SubjectStore;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterConnections;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.ClusterStore;
import dev.klave.credential.Credential;
import dev.klave.crypto.TokenHash;
import dev.klave.messages.Message;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The credential checks of spec 1 §5 "Credentials at the proxy", in the specification's order:
 * a well-formed bearer token, known (to the way in's {@link Bearers}), not revoked, not expired;
 * its owner enabled; the cluster known; the credential not restricted to another cluster; an
 * active grant there; tokens stored.
 *
 * <p>A passed check is kept and reused while the shared {@link AccessChanges} counter has not
 * moved and nothing in it has expired. The gateway takes a kept check from memory
 * ({@link #remembered}) and confirms it with the counter value the audit writer reads after the
 * request's row commits: a revocation committed on any replica before that moment refuses the
 * request, as a full check would, and a request costs no query of its own. When the counter moves,
 * every check made before is dropped at once — a cluster's replaced tokens or a deleted cluster
 * move it too, so no kept check outlives the secrets it holds.
 */
public final class CredentialChecks implements StreamChecks {
    /** A bound on remembered checks, not an LRU: forgetting costs only a full check. */
    private static final int REMEMBERED_LIMIT = 10_000;

    private final Bearers bearers;
    private final SubjectStore subjects;
    private final ClusterStore clusters;
    private final GrantStore grants;
    private final ClusterConnections connections;
    private final AccessChanges changes;
    private final Clock clock;
    private final Map<Key, Caller> remembered = new ConcurrentHashMap<>();
    /** The highest counter value seen; a kept check made before it is known to be stale. */
    private final AtomicLong latest = new AtomicLong(Long.MIN_VALUE);

    /** A kept check's key: a token's hash and a cluster, never a string built from them. */
    private record Key(TokenHash token, ClusterId cluster) {}

    public CredentialChecks(Bearers bearers, SubjectStore subjects, ClusterStore clusters, GrantStore grants,
            ClusterConnections connections, AccessChanges changes, Clock clock) {
        this.bearers = requireNonNull(bearers, "bearers is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.grants = requireNonNull(grants, "grants is null");
        this.connections = requireNonNull(connections, "connections is null");
        this.changes = requireNonNull(changes, "changes is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Checks a token for a cluster, or reuses the check of an earlier request with the same token
     * when no access changed since and nothing in it expired.
     *
     * @param found told the credential as soon as it is known, for the audit row of a refusal
     * @throws dev.klave.messages.Refusal with the Status the specification gives each failure
     */
    public Caller admit(TokenHash token, ClusterId cluster, Consumer<Credential> found) {
        // Read before any check, so a change committed during the check moves it past what is remembered.
        long generation = changes.generation();
        observed(generation);
        Key key = new Key(token, cluster);
        Caller known = remembered.get(key);
        if (known != null && known.generation() == generation && clock.instant().isBefore(known.validUntil())) {
            found.accept(known.credential());
            return known;
        }
        remembered.remove(key);
        Credential credential = bearers.find(token).orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
        found.accept(credential);
        Caller caller = authenticate(credential, cluster, generation);
        if (remembered.size() >= REMEMBERED_LIMIT) {
            remembered.clear();
        }
        remembered.put(key, caller);
        return caller;
    }

    /**
     * A kept check for this token and cluster that may still hold, from memory alone; the caller
     * must confirm it against the counter ({@link Caller#generation()}) before forwarding. Empty
     * when there is none, or it is known to be stale or expired (the full check then decides).
     */
    public Optional<Caller> remembered(TokenHash token, ClusterId cluster) {
        Caller known = remembered.get(new Key(token, cluster));
        if (known == null || known.generation() < latest.get() || !clock.instant().isBefore(known.validUntil())) {
            return Optional.empty();
        }
        return Optional.of(known);
    }

    /**
     * The credential a token names, whatever its state, for the audit row of a request refused
     * before its credential was checked (spec 1 §1.3). Empty for an unknown one, and when the
     * database cannot say.
     */
    public Optional<Credential> identify(TokenHash token) {
        try {
            return bearers.find(token);
        } catch (RuntimeException unavailable) {
            return Optional.empty();
        }
    }

    /**
     * The login of a credential's owner, for the audit row of a refused request (spec 1 §2: the
     * row names its subject); empty when the database cannot say.
     */
    public Optional<String> ownerLogin(Credential credential) {
        try {
            return subjects.findById(credential.subjectId()).map(owner -> owner.login().value());
        } catch (RuntimeException unavailable) {
            return Optional.empty();
        }
    }

    /**
     * Notes a counter value read elsewhere (after an audit commit), so stale checks are skipped at
     * once; when it moves forward, the checks made before it are dropped (rare: access changed).
     */
    public void observed(long generation) {
        long before = latest.getAndAccumulate(generation, Math::max);
        if (generation > before && before != Long.MIN_VALUE) {
            remembered.values().removeIf(kept -> kept.generation() < generation);
        }
    }

    /** The current value of the shared access counter (see {@link AccessChanges}). */
    @Override
    public long generation() {
        return changes.generation();
    }

    /**
     * The full check of a credential known by its id (an open stream's), from the database.
     *
     * @param generation the access counter read before the check began
     * @throws dev.klave.messages.Refusal when the credential is gone or fails any check
     */
    @Override
    public Caller recheck(String credentialId, ClusterId cluster, long generation) {
        Credential credential = bearers.findById(credentialId).orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
        return authenticate(credential, cluster, generation);
    }

    /**
     * The full check, always from the database.
     *
     * @param generation the access counter read before the check began
     * @throws dev.klave.messages.Refusal with the Status the specification gives each failure
     */
    public Caller authenticate(Credential credential, ClusterId cluster, long generation) {
        Instant now = clock.instant();
        if (credential.revoked()) {
            throw Message.CREDENTIAL_REVOKED.refusal();
        }
        if (credential.expiredAt(now)) {
            throw Message.CREDENTIAL_EXPIRED.refusal();
        }
        Subject owner = subjects.findById(credential.subjectId()).orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
        if (!owner.enabled()) {
            throw Message.ACCOUNT_DISABLED.refusal();
        }
        Cluster registered = clusters.findById(cluster).orElseThrow(Message.CLUSTER_UNKNOWN::refusal);
        if (credential.clusterId().isPresent() && !credential.clusterId().get().equals(cluster)) {
            throw Message.CREDENTIAL_OTHER_CLUSTER.refusal(credential.clusterId().get().value());
        }
        String userName = KubernetesIdentity.userName(owner);
        List<Grant> active = bearers.reach(credential, grants.find(Optional.of(owner.id()), Optional.of(cluster),
                false).stream().filter(grant -> grant.activeAt(now)).toList());
        List<String> groups = active.stream().map(Grant::group).distinct().sorted().toList();
        if (groups.isEmpty()) {
            throw Message.NO_ACTIVE_GRANT_ON_CLUSTER.refusal(userName, cluster.value());
        }
        if (!registered.hasTokens()) {
            throw Message.CLUSTER_WITHOUT_TOKENS_PROXY.refusal();
        }
        // The groups change when any one of the grants expires; the check holds until the first does.
        Instant validUntil = active.stream()
                .flatMap(grant -> grant.expiresAt().stream())
                .reduce(credential.expiresAt(), (first, second) -> first.isBefore(second) ? first : second);
        return new Caller(owner, credential, userName, groups, connections.secrets(registered), generation,
                validUntil);
    }
}
