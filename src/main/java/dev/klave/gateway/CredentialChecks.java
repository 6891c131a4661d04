package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.access.AccessChanges;
import dev.klave.access.Authority;
import dev.klave.access.Grant;
import dev.klave.access.KubernetesIdentity;
import dev.klave.account.Subject;
import dev.klave.account.SubjectStore;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterConnections;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.ClusterStore;
import dev.klave.messages.Message;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * The credential checks of spec 1 §5 "Credentials at the proxy", in the specification's order:
 * a well-formed bearer token, known (to the proxy's {@link Bearers}), not revoked, not expired;
 * its owner enabled; the cluster known; the credential not restricted to another cluster; an
 * active grant there (the {@link Authority}'s to say); tokens stored. A bearer resolved at another edge ({@code /mcp}
 * resolves its caller once) is checked from the second step on, by {@link #admit(Bearer, ClusterId)}.
 *
 * <p>A passed check is kept and reused while the shared {@link AccessChanges} generation has not
 * moved and nothing in it has expired. The gateway takes a kept check from memory
 * ({@link #remembered}) and confirms it with the access generation value the audit writer reads after the
 * request's row commits: a revocation committed on any replica before that moment refuses the
 * request, as a full check would, and a request costs no query of its own. When the access generation moves,
 * every check made before is dropped at once — a cluster's replaced tokens or a deleted cluster
 * move it too, so no kept check outlives the secrets it holds.
 */
public final class CredentialChecks implements CallChecks {
    /** A bound on remembered checks, not an LRU: forgetting costs only a full check. */
    private static final int REMEMBERED_LIMIT = 10_000;

    private final BearerResolver bearers;
    private final Authority authority;
    private final SubjectStore subjects;
    private final ClusterStore clusters;
    private final ClusterConnections connections;
    private final AccessChanges changes;
    private final Clock clock;
    private final Map<Key, Caller> remembered = new ConcurrentHashMap<>();
    /** The highest access generation value seen; a kept check made before it is known to be stale. */
    private final AtomicLong latest = new AtomicLong(Long.MIN_VALUE);

    /** A kept check's key: the bearer's id and a cluster — never a string built from them. */
    private record Key(String bearer, ClusterId cluster) {}

    /** @param bearers every bearer again by its id (the stream guard's checks), told the generations seen */
    public CredentialChecks(BearerResolver bearers, Authority authority, SubjectStore subjects, ClusterStore clusters,
            ClusterConnections connections, AccessChanges changes, Clock clock) {
        this.bearers = requireNonNull(bearers, "bearers is null");
        this.authority = requireNonNull(authority, "authority is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.connections = requireNonNull(connections, "connections is null");
        this.changes = requireNonNull(changes, "changes is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Checks a bearer its edge resolved for a cluster, or reuses an earlier check of it there when
     * no access changed since and nothing in it expired; for a full check the bearer is read afresh
     * (one kept in memory may be stale), after the access generation.
     *
     * @throws dev.klave.messages.Refusal with the Status the specification gives each failure
     */
    public Caller admit(Resolved resolved, ClusterId cluster) {
        return admit(resolved, cluster, ignored -> { });
    }

    /** As {@link #admit(Resolved, ClusterId)}, telling {@code found} the bearer, for the audit row of a refusal. */
    public Caller admit(Resolved resolved, ClusterId cluster, Consumer<Bearer> found) {
        return admit(generation -> resolved.bearer(), resolved.again(), cluster, found);
    }

    /**
     * Checks a bearer its edge resolves only now — after the access generation is read, so that a
     * change committed meanwhile is seen — or reuses an earlier check of it there.
     *
     * @param found told the bearer as soon as it is known, for the audit row of a refusal
     * @throws dev.klave.messages.Refusal with the Status the specification gives each failure
     */
    public Caller admit(LongFunction<Bearer> resolve, ClusterId cluster, Consumer<Bearer> found) {
        return admit(resolve, resolve, cluster, found);
    }

    private Caller admit(LongFunction<Bearer> known, LongFunction<Bearer> fresh, ClusterId cluster,
            Consumer<Bearer> found) {
        // Read before any check, so a change committed during the check moves it past what is remembered.
        long generation = changes.generation();
        observed(generation);
        Bearer presented = known.apply(generation);
        found.accept(presented);
        Key key = new Key(presented.id(), cluster);
        Caller kept = remembered.get(key);
        if (kept != null && kept.holdsAt(generation, clock.instant())) {
            return kept;
        }
        remembered.remove(key);
        Bearer bearer = known == fresh ? presented : fresh.apply(generation);
        Caller caller = authenticate(bearer, cluster, generation);
        if (remembered.size() >= REMEMBERED_LIMIT) {
            remembered.clear();
        }
        remembered.put(key, caller);
        return caller;
    }

    /**
     * A kept check of this bearer on this cluster that may still hold, from memory alone; the
     * caller must confirm it against the access generation ({@link Caller#generation()}) before
     * forwarding. Empty when there is none, or it is known to be stale or expired.
     */
    public Optional<Caller> remembered(Bearer bearer, ClusterId cluster) {
        return remembered(new Key(bearer.id(), cluster));
    }

    private Optional<Caller> remembered(Key key) {
        Caller known = remembered.get(key);
        // Against the newest generation seen: a check made before it is known to be stale.
        return Optional.ofNullable(known).filter(kept -> kept.holdsAt(latest.get(), clock.instant()));
    }

    /** A bearer read again by its id, as it stands now (see {@link BearerResolver#again}). */
    public Bearer bearer(String id) {
        return bearers.again(id);
    }

    /**
     * The login of a bearer's owner, for the audit row of a refused request (spec 1 §2: the
     * row names its subject); empty when the database cannot say.
     */
    public Optional<String> ownerLogin(Bearer bearer) {
        try {
            return subjects.findById(bearer.owner()).map(owner -> owner.login().value());
        } catch (RuntimeException unavailable) {
            return Optional.empty();
        }
    }

    /**
     * Notes a access generation value read elsewhere (after an audit commit), so stale checks are skipped at
     * once; when it moves forward, the checks made before it are dropped (rare: access changed).
     */
    public void observed(long generation) {
        bearers.observed(generation);
        long before = latest.getAndAccumulate(generation, Math::max);
        if (generation > before && before != Long.MIN_VALUE) {
            remembered.values().removeIf(kept -> kept.generation() < generation);
        }
    }

    /** The current value of the shared access generation (see {@link AccessChanges}). */
    @Override
    public long generation() {
        return changes.generation();
    }

    /**
     * The full check of a bearer known by its id (an open call's), from the database.
     *
     * @param generation the access generation read before the check began
     * @throws dev.klave.messages.Refusal when the bearer is gone or fails any check
     */
    @Override
    public Caller recheck(String bearerId, ClusterId cluster, long generation) {
        return authenticate(bearers.again(bearerId), cluster, generation);
    }

    /**
     * The full check, always from the database.
     *
     * @param generation the access generation read before the check began
     * @throws dev.klave.messages.Refusal with the Status the specification gives each failure
     */
    public Caller authenticate(Bearer bearer, ClusterId cluster, long generation) {
        Instant now = clock.instant();
        Optional<Message> refused = bearer.refusedAt(now);
        if (refused.isPresent()) {
            throw refused.get().refusal();
        }
        Subject owner = subjects.findById(bearer.owner()).orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
        if (!owner.enabled()) {
            throw Message.ACCOUNT_DISABLED.refusal();
        }
        Cluster registered = clusters.findById(cluster).orElseThrow(Message.CLUSTER_UNKNOWN::refusal);
        if (bearer.restrictedTo().filter(only -> !only.equals(cluster)).isPresent()) {
            throw Message.CREDENTIAL_OTHER_CLUSTER.refusal(bearer.restrictedTo().get().value());
        }
        String userName = KubernetesIdentity.userName(owner);
        List<Grant> active = authority.on(bearer.acting(), cluster);
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
                .reduce(bearer.expiresAt(), (first, second) -> first.isBefore(second) ? first : second);
        return new Caller(owner, bearer, userName, groups, connections.secrets(registered), generation,
                validUntil);
    }
}
