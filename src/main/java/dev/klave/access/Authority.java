package dev.klave.access;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Who may do what on which cluster, and as what — the one authority every decider asks (issue 52):
 * the gateway for each call, the stream guard for each open one, the agents' tools, the consent
 * page, access requests and eligible grants, credentials, the reconciler and the web. It reads the
 * grants in force; nothing outside {@code access} (and {@code store}, which implements it) reads
 * {@link GrantStore} or {@link EligibleGrantStore}, and nothing else holds a rule of access.
 *
 * <ul>
 *   <li>A credential reaches its owner's grants in force — on the one cluster it is restricted
 *       to, when it is.
 *   <li>A delegated agent's session reaches, of its person's grants in force, those that carry a
 *       permission the person chose on the consent page, and the roles lent to it since by
 *       approved access requests, each through a grant that covers it and never past that grant's
 *       end (spec 3 §4-5).
 *   <li>{@code cluster-admin} is beyond every agent, every person's own request and every eligible
 *       grant: only an administrator's grant gives it ({@link #delegable}).
 * </ul>
 */
public final class Authority {
    private final GrantStore grants;
    private final LentAccess lent;
    private final Clock clock;

    public Authority(GrantStore grants, LentAccess lent, Clock clock) {
        this.grants = requireNonNull(grants, "grants is null");
        this.lent = requireNonNull(lent, "lent is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Who acts on a cluster, as far as access goes. */
    public sealed interface Acting permits Acting.WithCredential, Acting.InSession {
        /** The subject whose grants it acts with. */
        SubjectId subject();

        /** A credential of {@code subject}'s, restricted to one cluster or not. */
        record WithCredential(SubjectId subject, Optional<ClusterId> restrictedTo) implements Acting {
            public WithCredential {
                requireNonNull(subject, "subject is null");
                requireNonNull(restrictedTo, "restrictedTo is null");
            }
        }

        /** A delegated agent's session of {@code subject}'s, with the permissions chosen for it. */
        record InSession(String sessionId, SubjectId subject, List<Permission> chosen) implements Acting {
            public InSession {
                requireNonNull(sessionId, "sessionId is null");
                requireNonNull(subject, "subject is null");
                chosen = List.copyOf(chosen);
            }
        }
    }

    /** The grants {@code acting} acts with on {@code cluster} now; none when it may not act there. */
    public List<Grant> on(Acting acting, ClusterId cluster) {
        if (acting instanceof Acting.WithCredential credential
                && credential.restrictedTo().filter(only -> !only.equals(cluster)).isPresent()) {
            return List.of();
        }
        return reachOf(acting, inForce(acting.subject(), Optional.of(cluster)));
    }

    /** The grants {@code acting} acts with now, on every cluster it may reach. */
    public List<Grant> everywhere(Acting acting) {
        List<Grant> owned = inForce(acting.subject(), Optional.empty());
        if (acting instanceof Acting.WithCredential credential && credential.restrictedTo().isPresent()) {
            ClusterId only = credential.restrictedTo().get();
            owned = owned.stream().filter(grant -> grant.clusterId().equals(only)).toList();
        }
        return reachOf(acting, owned);
    }

    private List<Grant> reachOf(Acting acting, List<Grant> active) {
        return switch (acting) {
            case Acting.WithCredential credential -> active;
            case Acting.InSession session -> {
                List<Grant> reach = new ArrayList<>();
                for (Grant grant : active) {
                    if (session.chosen().stream().anyMatch(permission -> permission.carriedBy(grant))) {
                        reach.add(grant);
                    }
                }
                for (LentAccess.Lent approved : lent.lentTo(session.sessionId(), clock.instant())) {
                    if (approved.subject().equals(session.subject()) && delegable(approved.role())) {
                        approved.through(active).ifPresent(reach::add);
                    }
                }
                yield reach;
            }
        };
    }

    /** A subject's own grants in force now, on one cluster or all. */
    public List<Grant> inForce(SubjectId subject, Optional<ClusterId> cluster) {
        Instant now = clock.instant();
        return grants.find(Optional.of(subject), cluster, false).stream().filter(grant -> grant.activeAt(now))
                .toList();
    }

    /** How many grants each of {@code subjects} holds in force: what the accounts' pages count. */
    public java.util.Map<SubjectId, Integer> countInForce(java.util.Collection<SubjectId> subjects) {
        return grants.countActive(subjects, clock.instant());
    }

    /** Whether {@code subject} holds any grant in force, on {@code cluster} or anywhere. */
    public boolean holdsAny(SubjectId subject, Optional<ClusterId> cluster) {
        return !inForce(subject, cluster).isEmpty();
    }

    /**
     * Within a person's ceiling (spec 3 §5 4, for a delegated agent's {@code request_access}): a
     * grant of theirs in force covers it — same cluster, in its scope, at or above its role.
     */
    public boolean within(SubjectId person, Permission asked) {
        return inForce(person, Optional.of(asked.cluster())).stream().anyMatch(asked::within);
    }

    /**
     * What a person may give an agent on the consent page: the role and scope of each of their
     * grants in force, one each; never {@code cluster-admin}.
     */
    public List<Permission> choosable(SubjectId person) {
        List<Permission> offered = new ArrayList<>();
        for (Grant grant : inForce(person, Optional.empty())) {
            Permission.of(grant).filter(permission -> !offered.contains(permission)).ifPresent(offered::add);
        }
        return offered;
    }

    /** The first of {@code chosen} that no grant of the person's in force carries, if any. */
    public Optional<Permission> beyond(SubjectId person, List<Permission> chosen) {
        List<Grant> own = inForce(person, Optional.empty());
        return chosen.stream().filter(permission -> own.stream().noneMatch(permission::carriedBy)).findFirst();
    }

    /**
     * What a cluster's RBAC must bind now: everyone's grants in force there, and the roles lent to
     * agents' sessions that a grant of their person in force still covers (a session acts with the
     * lent role's group, which needs its binding even where no grant carries that role exactly).
     */
    public List<Grant> bound(ClusterId cluster) {
        Instant now = clock.instant();
        List<Grant> granted = grants.find(Optional.empty(), Optional.of(cluster), false).stream()
                .filter(grant -> grant.activeAt(now)).toList();
        List<Grant> bound = new ArrayList<>(granted);
        for (LentAccess.Lent one : lent.inForce(cluster, now)) {
            one.through(granted).ifPresent(bound::add);
        }
        return bound;
    }

    /** Whether a grant on {@code cluster} ran out after {@code after} and by {@code now}: its binding must go. */
    public boolean lapsedBetween(ClusterId cluster, Instant after, Instant now) {
        return grants.find(Optional.empty(), Optional.of(cluster), false).stream()
                .map(Grant::expiresAt)
                .flatMap(Optional::stream)
                .anyMatch(expiry -> expiry.isAfter(after) && !expiry.isAfter(now));
    }

    /**
     * Whether a tier may be given by anything but an administrator's grant — an agent's
     * permission or request, a person's own request, an eligible grant: every tier but
     * {@code cluster-admin} (spec 3 §5 4).
     */
    public static boolean delegable(Tier tier) {
        return tier != Tier.CLUSTER_ADMIN;
    }

    /** The tiers {@link #delegable}, in the catalogue's order: what the web offers to ask for. */
    public static List<Tier> delegableTiers() {
        return Arrays.stream(Tier.values()).filter(Authority::delegable).toList();
    }
}
