package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.access.Grant;
import dev.klave.access.LentAccess;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.agent.approval.AccessRequest;
import dev.klave.agent.approval.AccessRequestStore;
import dev.klave.agent.approval.AccessStatus;
import dev.klave.agent.approval.Actor;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.storage.AlreadyExistsException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link AccessRequestStore} must do, whatever the database behind it. */
abstract class AccessRequestStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private AccessRequestStore store;
    private JdbiClusterStore clusters;
    private JdbiGrantStore grants;

    @Override
    protected void setUp(Database database) {
        store = new JdbiAccessRequestStore(database);
        clusters = new JdbiClusterStore(database);
        grants = new JdbiGrantStore(database);
    }

    private ClusterId storedCluster() {
        ClusterId id = new ClusterId("c-" + UUID.randomUUID().toString().substring(0, 8));
        clusters.create(new Cluster(id, "Cluster", NOW, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty()));
        return id;
    }

    private AccessRequest stored(Actor actor, Optional<SubjectId> decider, ClusterId cluster, Instant createdAt) {
        AccessRequest request = new AccessRequest("ar_" + UUID.randomUUID(), actor, decider, cluster,
                new Scope("team-a"), Tier.EDIT, 30, "desplegar la corrección: ñ", AccessStatus.PENDING, createdAt,
                createdAt.plus(Duration.ofHours(24)), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
        store.create(request);
        return request;
    }

    private static Actor session(SubjectId subject, String session) {
        return new Actor(subject, Optional.empty(), Optional.of(session));
    }

    /** Approves {@code request} with a grant of its own, stored, expiring {@code minutes} after {@code at}. */
    private Grant approved(AccessRequest request, Instant at) {
        Instant expiry = at.plus(Duration.ofMinutes(request.minutes()));
        Grant grant = new Grant(UUID.randomUUID().toString(), request.actor().subject(), request.cluster(),
                request.role(), request.scope(), Optional.of(expiry), "", at, Optional.empty(), Optional.empty(),
                Optional.empty());
        grants.create(grant);
        assertThat(store.approve(request.id(), at, "ana", grant.id(), expiry)).isTrue();
        return grant;
    }

    @Test
    void aStoredRequestReadsBackWhole() {
        SubjectId ana = storedPerson("access");
        AccessRequest delegated = stored(session(ana, "s-1"), Optional.of(ana), storedCluster(), NOW.plusMillis(3));
        AccessRequest bots = stored(new Actor(storedPerson("bot"), Optional.of("cred-1"), Optional.empty()),
                Optional.empty(), storedCluster(), NOW);

        assertThat(store.findById(delegated.id())).contains(delegated);
        assertThat(store.findById(bots.id())).contains(bots);
        assertThat(store.findById("ar_unknown")).isEmpty();
        assertThatThrownBy(() -> store.create(bots)).isInstanceOf(AlreadyExistsException.class);
    }

    @Test
    void approvingNamesTheGrantOnceAndOnlyWhilePendingAndUnexpired() {
        SubjectId ana = storedPerson("access");
        ClusterId cluster = storedCluster();
        AccessRequest request = stored(session(ana, "s-1"), Optional.of(ana), cluster, NOW);
        AccessRequest late = stored(session(ana, "s-1"), Optional.of(ana), cluster, NOW);
        Grant grant = approved(request, NOW.plusSeconds(5));

        assertThat(store.approve(request.id(), NOW.plusSeconds(6), "root", "other", NOW.plusSeconds(60))).isFalse();
        assertThat(store.deny(request.id(), NOW.plusSeconds(6), "root")).isFalse();
        assertThat(store.approve(late.id(), late.expiresAt(), "ana", "g", NOW.plus(Duration.ofDays(2)))).isFalse();
        assertThat(store.deny("ar_unknown", NOW, "ana")).isFalse();

        AccessRequest read = store.findById(request.id()).orElseThrow();
        assertThat(read.status()).isEqualTo(AccessStatus.APPROVED);
        assertThat(read.decidedAt()).contains(NOW.plusSeconds(5));
        assertThat(read.decidedBy()).contains("ana");
        assertThat(read.grantId()).contains(grant.id());
        assertThat(read.grantExpiresAt()).isEqualTo(grant.expiresAt());
        assertThat(store.findById(late.id()).orElseThrow().statusAt(late.expiresAt())).isEqualTo(AccessStatus.EXPIRED);
    }

    @Test
    void aDeniedRequestNamesNoGrant() {
        SubjectId ana = storedPerson("access");
        AccessRequest request = stored(session(ana, "s-1"), Optional.of(ana), storedCluster(), NOW);

        assertThat(store.deny(request.id(), NOW.plusSeconds(1), "ana")).isTrue();
        assertThat(store.deny(request.id(), NOW.plusSeconds(2), "ana")).isFalse();

        AccessRequest read = store.findById(request.id()).orElseThrow();
        assertThat(read.status()).isEqualTo(AccessStatus.DENIED);
        assertThat(read.grantId()).isEmpty();
    }

    @Test
    void inForceAreTheApprovedWhoseGrantStillRunsForTheSameSubjectAndSession() {
        SubjectId ana = storedPerson("access");
        ClusterId cluster = storedCluster();
        AccessRequest first = stored(session(ana, "s-1"), Optional.of(ana), cluster, NOW);
        AccessRequest second = stored(session(ana, "s-1"), Optional.of(ana), cluster, NOW);
        AccessRequest revoked = stored(session(ana, "s-1"), Optional.of(ana), cluster, NOW);
        AccessRequest otherSession = stored(session(ana, "s-2"), Optional.of(ana), cluster, NOW);
        stored(session(ana, "s-1"), Optional.of(ana), cluster, NOW);
        approved(first, NOW.plusSeconds(1));
        approved(second, NOW.plusSeconds(2));
        grants.revoke(approved(revoked, NOW.plusSeconds(3)).id(), NOW.plusSeconds(4), "root");
        approved(otherSession, NOW.plusSeconds(5));

        assertThat(store.inForce(session(ana, "s-1"), NOW.plusSeconds(10))).extracting(AccessRequest::id)
                .containsExactly(first.id(), second.id());
        assertThat(store.inForce(session(ana, "s-2"), NOW.plusSeconds(10))).extracting(AccessRequest::id)
                .containsExactly(otherSession.id());
        assertThat(store.inForce(new Actor(ana, Optional.of("cred"), Optional.empty()), NOW.plusSeconds(10)))
                .as("no session: every one of the subject").extracting(AccessRequest::id)
                .containsExactly(first.id(), second.id(), otherSession.id());
        assertThat(store.inForce(session(ana, "s-1"), NOW.plusSeconds(1).plus(Duration.ofMinutes(30))))
                .as("the first grant ran out, the second runs a second more").extracting(AccessRequest::id)
                .containsExactly(second.id());
        assertThat(store.inForce(session(storedPerson("access"), "s-1"), NOW.plusSeconds(10))).isEmpty();
    }

    @Test
    void aDecidersListHasPendingFirstThenTheRestNewestFirst() {
        SubjectId ana = storedPerson("access");
        ClusterId cluster = storedCluster();
        AccessRequest oldPending = stored(session(ana, "s"), Optional.of(ana), cluster, NOW);
        AccessRequest decided = stored(session(ana, "s"), Optional.of(ana), cluster, NOW.plusSeconds(30));
        AccessRequest newPending = stored(session(ana, "s"), Optional.of(ana), cluster, NOW.plusSeconds(20));
        store.deny(decided.id(), NOW.plusSeconds(31), "ana");
        AccessRequest bots = stored(new Actor(storedPerson("bot"), Optional.of("c"), Optional.empty()),
                Optional.empty(), cluster, NOW);

        assertThat(store.forDecider(Optional.of(ana), NOW.plusSeconds(40), 10)).extracting(AccessRequest::id)
                .containsExactly(newPending.id(), oldPending.id(), decided.id());
        assertThat(store.forDecider(Optional.empty(), NOW.plusSeconds(40), 100)).contains(bots)
                .allSatisfy(request -> assertThat(request.decider()).isEmpty());
    }

    @Test
    void deletingTheClusterDeletesItsRequests() {
        SubjectId ana = storedPerson("access");
        ClusterId gone = storedCluster();
        AccessRequest request = stored(session(ana, "s"), Optional.of(ana), gone, NOW);

        assertThat(clusters.delete(gone)).isTrue();

        assertThat(store.findById(request.id())).isEmpty();
    }

    @Test
    void whatIsLentOnAClusterIsTheApprovedRequestsOfSessionsStillWithinTheirMinutes() {
        ClusterId cluster = storedCluster();
        SubjectId ana = storedPerson("lender");
        AccessRequest delegated = stored(session(ana, "s-lent"), Optional.of(ana), cluster, NOW);
        AccessRequest bots = stored(new Actor(storedPerson("lent-bot"), Optional.of("cred-2"), Optional.empty()),
                Optional.empty(), cluster, NOW);
        stored(session(ana, "s-pending"), Optional.of(ana), cluster, NOW);
        approved(delegated, NOW);
        approved(bots, NOW);
        LentAccess lent = (LentAccess) store;

        assertThat(lent.inForce(cluster, NOW.plusSeconds(60))).containsExactly(new LentAccess.Lent(ana, cluster,
                Tier.EDIT, new Scope("team-a"), NOW.plus(Duration.ofMinutes(30))));
        assertThat(lent.inForce(cluster, NOW.plus(Duration.ofMinutes(30)))).isEmpty();
        assertThat(lent.inForce(storedCluster(), NOW)).isEmpty();
    }
}
