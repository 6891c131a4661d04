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
import dev.klave.agent.approval.Course;
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
                Optional.empty(), Course.agent(1));
        store.create(request);
        return request;
    }

    /** A person's own request (issue 41), needing {@code approvals}. */
    private AccessRequest asked(SubjectId person, ClusterId cluster, Instant createdAt, int approvals) {
        AccessRequest request = new AccessRequest("ar_" + UUID.randomUUID(), new Actor(person, Optional.empty(),
                Optional.empty()), Optional.empty(), cluster, Scope.ALL, Tier.ADMIN, 600, "incidente 42",
                AccessStatus.PENDING, createdAt, createdAt.plus(Duration.ofHours(24)), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Course.person(approvals));
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
        assertThat(store.approve(request.id(), at, "ana", Optional.empty(), grant.id(), expiry)).isTrue();
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

        assertThat(store.approve(request.id(), NOW.plusSeconds(6), "root", Optional.empty(), "other", NOW.plusSeconds(60))).isFalse();
        assertThat(store.deny(request.id(), NOW.plusSeconds(6), "root", Optional.empty())).isFalse();
        assertThat(store.approve(late.id(), late.expiresAt(), "ana", Optional.empty(), "g", NOW.plus(Duration.ofDays(2)))).isFalse();
        assertThat(store.deny("ar_unknown", NOW, "ana", Optional.empty())).isFalse();

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

        assertThat(store.deny(request.id(), NOW.plusSeconds(1), "ana", Optional.empty())).isTrue();
        assertThat(store.deny(request.id(), NOW.plusSeconds(2), "ana", Optional.empty())).isFalse();

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
        store.deny(decided.id(), NOW.plusSeconds(31), "ana", Optional.empty());
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

    @Test
    void aPersonsRequestReadsBackWithItsCourseAndIsListedAsTheirs() {
        SubjectId eva = storedPerson("access");
        ClusterId cluster = storedCluster();
        AccessRequest own = asked(eva, cluster, NOW, 2);
        AccessRequest agents = stored(session(eva, "s-1"), Optional.of(eva), cluster, NOW.plusSeconds(1));

        assertThat(store.findById(own.id())).contains(own);
        assertThat(store.askedBy(eva, 10)).as("a person's own, not their agents'").containsExactly(own);
        assertThat(store.askedBy(eva, cluster, 10)).containsExactly(own);
        assertThat(store.askedBy(eva, storedCluster(), 10)).isEmpty();
        assertThat(store.onClusters(java.util.List.of(cluster), NOW, 10)).as("no single decider")
                .containsExactly(own).doesNotContain(agents);
        assertThat(store.onClusters(java.util.List.of(), NOW, 10)).isEmpty();
    }

    @Test
    void aFirstApprovalIsRecordedAndReplacedWhileTheRequestWaits() {
        SubjectId eva = storedPerson("access");
        ClusterId cluster = storedCluster();
        AccessRequest request = asked(eva, cluster, NOW, 1);

        assertThat(store.recordFirst(request.id(), NOW.plusSeconds(2), "ana", Optional.of("vale"))).isTrue();
        AccessRequest first = store.findById(request.id()).orElseThrow();
        assertThat(first.course().approvalsNeeded()).as("the policy asked for two since").isEqualTo(2);
        assertThat(first.course().first()).contains(new Course.Decision("ana", NOW.plusSeconds(2), Optional.of("vale")));
        // A first approval that no longer counts is replaced by the next.
        assertThat(store.recordFirst(request.id(), NOW.plusSeconds(3), "luis", Optional.empty())).isTrue();
        assertThat(store.findById(request.id()).orElseThrow().course().first().orElseThrow().by()).isEqualTo("luis");
        assertThat(store.approve(request.id(), NOW.plusSeconds(5), "marta", Optional.of("ok"), "g",
                NOW.plusSeconds(600))).isTrue();

        AccessRequest read = store.findById(request.id()).orElseThrow();
        assertThat(read.course().comment()).contains("ok");
        assertThat(read.decidedBy()).contains("marta");
        assertThat(store.recordFirst(request.id(), NOW.plusSeconds(6), "ana", Optional.empty()))
                .as("only while it waits").isFalse();
        assertThat(store.approve(request.id(), NOW.plusSeconds(7), "ana", Optional.empty(), "g",
                NOW.plusSeconds(600))).as("once").isFalse();
    }

    @Test
    void aLockedRequestIsReadInsideItsTransaction() {
        AccessRequest request = asked(storedPerson("access"), storedCluster(), NOW, 1);
        assertThat(database().inTransaction(() -> store.lock(request.id()))).contains(request);
        assertThat(database().inTransaction(() -> store.lock("ar_none"))).isEmpty();
    }

    @Test
    void aWaitingRequestIsWithdrawnOnceWithWhy() {
        SubjectId eva = storedPerson("access");
        AccessRequest request = asked(eva, storedCluster(), NOW, 1);
        assertThat(store.pendingOf(eva, NOW)).containsExactly(request);

        assertThat(store.withdraw(request.id(), NOW.plusSeconds(1), "retirada: la cuenta se deshabilitó")).isTrue();
        assertThat(store.withdraw(request.id(), NOW.plusSeconds(2), "otra vez")).isFalse();

        AccessRequest read = store.findById(request.id()).orElseThrow();
        assertThat(read.status()).isEqualTo(AccessStatus.CANCELLED);
        assertThat(read.course().comment()).contains("retirada: la cuenta se deshabilitó");
        assertThat(read.decidedBy()).isEmpty();
        assertThat(store.pendingOf(eva, NOW.plusSeconds(3))).isEmpty();
    }

    @Test
    void anEligibleGrantsWaitingActivationsAndAPersonsRunningAccessAreFound() {
        SubjectId eva = storedPerson("access");
        ClusterId cluster = storedCluster();
        new JdbiEligibleGrantStore(database()).create(new dev.klave.access.EligibleGrant("el-1", eva, cluster,
                Tier.ADMIN, Scope.ALL, 120, true, "", NOW, Optional.of("root"), Optional.empty(), Optional.empty()));
        AccessRequest activation = new AccessRequest("ar_" + UUID.randomUUID(), new Actor(eva, Optional.empty(),
                Optional.empty()), Optional.empty(), cluster, Scope.ALL, Tier.ADMIN, 60, "guardia",
                AccessStatus.PENDING, NOW, NOW.plus(Duration.ofHours(24)), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Course.eligible("el-1", 1));
        store.create(activation);
        assertThat(store.pendingActivations("el-1", NOW)).containsExactly(activation);
        assertThat(store.pendingActivations("el-2", NOW)).isEmpty();

        AccessRequest own = asked(eva, cluster, NOW, 1);
        Grant grant = approved(own, NOW.plusSeconds(5));
        assertThat(store.grantedRunning(eva, NOW.plusSeconds(6))).extracting(AccessRequest::id).containsExactly(own.id());
        assertThat(store.grantedRunning(eva, grant.expiresAt().orElseThrow())).as("past its end").isEmpty();
    }

    @Test
    void aRequestsAccessReadsAsEndedOnceItsGrantIsRevoked() {
        SubjectId eva = storedPerson("access");
        AccessRequest request = asked(eva, storedCluster(), NOW, 1);
        Grant grant = approved(request, NOW.plusSeconds(5));
        assertThat(store.findById(request.id()).orElseThrow().grantRunsAt(NOW.plusSeconds(10))).isTrue();

        grants.revoke(grant.id(), NOW.plusSeconds(20), "root");

        AccessRequest read = store.findById(request.id()).orElseThrow();
        assertThat(read.course().endedAt()).as("before the sweep records it").contains(NOW.plusSeconds(20));
        assertThat(read.grantRunsAt(NOW.plusSeconds(30))).isFalse();
        assertThat(store.reachedEnd(NOW.plusSeconds(30), 100)).extracting(AccessRequest::id).contains(request.id());
    }

    @Test
    void aRequestIsCancelledOnlyWhilePending() {
        SubjectId eva = storedPerson("access");
        AccessRequest request = asked(eva, storedCluster(), NOW, 1);

        assertThat(store.cancel(request.id(), NOW.plusSeconds(1), "eva")).isTrue();
        assertThat(store.cancel(request.id(), NOW.plusSeconds(2), "eva")).isFalse();
        assertThat(store.deny(request.id(), NOW.plusSeconds(3), "ana", Optional.empty())).isFalse();
        assertThat(store.findById(request.id()).orElseThrow().status()).isEqualTo(AccessStatus.CANCELLED);
    }

    @Test
    void runOutRequestsAreStoredExpiredOnce() {
        SubjectId eva = storedPerson("access");
        AccessRequest request = asked(eva, storedCluster(), NOW, 1);
        Instant later = request.expiresAt().plusSeconds(1);

        assertThat(store.runOut(request.expiresAt().minusSeconds(1), 100)).doesNotContain(request);
        assertThat(store.runOut(later, 100)).extracting(AccessRequest::id).contains(request.id());
        assertThat(store.expire(request.id(), later)).isTrue();
        assertThat(store.expire(request.id(), later)).isFalse();
        assertThat(store.runOut(later, 100)).extracting(AccessRequest::id).doesNotContain(request.id());
        assertThat(store.findById(request.id()).orElseThrow().status()).isEqualTo(AccessStatus.EXPIRED);
    }

    @Test
    void accessEndsOnceEarlyAtItsEndOrWhenItsGrantIsRevoked() {
        SubjectId eva = storedPerson("access");
        ClusterId cluster = storedCluster();
        AccessRequest early = asked(eva, cluster, NOW, 1);
        AccessRequest toEnd = asked(eva, cluster, NOW, 1);
        AccessRequest revoked = asked(eva, cluster, NOW, 1);
        Grant earlyGrant = approved(early, NOW);
        Grant endGrant = approved(toEnd, NOW);
        Grant revokedGrant = approved(revoked, NOW);
        Instant end = endGrant.expiresAt().orElseThrow();

        assertThat(store.end(early.id(), NOW.plusSeconds(60), Optional.of("eva"))).isTrue();
        assertThat(store.end(early.id(), NOW.plusSeconds(61), Optional.of("eva"))).isFalse();
        assertThat(store.end(toEnd.id(), NOW.plusSeconds(60), Optional.empty())).as("still running").isFalse();
        assertThat(store.reachedEnd(NOW.plusSeconds(60), 1000)).extracting(AccessRequest::id)
                .doesNotContain(early.id(), toEnd.id(), revoked.id());

        grants.revoke(revokedGrant.id(), NOW.plusSeconds(70), "root");
        assertThat(store.reachedEnd(NOW.plusSeconds(80), 1000)).extracting(AccessRequest::id)
                .contains(revoked.id()).doesNotContain(early.id(), toEnd.id());
        assertThat(store.end(revoked.id(), NOW.plusSeconds(80), Optional.empty())).isTrue();
        assertThat(store.reachedEnd(end, 1000)).extracting(AccessRequest::id).contains(toEnd.id())
                .doesNotContain(early.id(), revoked.id());
        assertThat(store.end(toEnd.id(), end.plusSeconds(5), Optional.empty())).isTrue();
        assertThat(store.reachedEnd(end.plusSeconds(5), 1000)).extracting(AccessRequest::id)
                .doesNotContain(early.id(), toEnd.id(), revoked.id());

        assertThat(store.findById(early.id()).orElseThrow().course().endedBy()).contains("eva");
        assertThat(store.findById(revoked.id()).orElseThrow().course().endedAt()).contains(NOW.plusSeconds(80));
        assertThat(store.findById(toEnd.id()).orElseThrow().course().endedAt()).as("its own end, not the sweep's")
                .contains(end);
        assertThat(store.inForce(new Actor(eva, Optional.empty(), Optional.empty()), NOW.plusSeconds(90)))
                .as("ended early is not in force").isEmpty();
        assertThat(store.madeGrants(java.util.List.of(earlyGrant.id(), "none"))).extracting(AccessRequest::id)
                .containsExactly(early.id());
        // An audit row's link: the request whose access ran then, not before its approval nor after its end.
        assertThat(store.coveringAt(eva, cluster, NOW.plusSeconds(30)).map(AccessRequest::id)).isPresent();
        assertThat(store.coveringAt(eva, cluster, NOW.minusSeconds(1))).isEmpty();
        assertThat(store.coveringAt(eva, storedCluster(), NOW.plusSeconds(30))).isEmpty();
        assertThat(store.coveringAt(eva, cluster, end.plusSeconds(1))).isEmpty();
    }

    @Test
    void theHolderIsToldOfTheComingEndOnce() {
        SubjectId eva = storedPerson("access");
        AccessRequest request = asked(eva, storedCluster(), NOW, 1);
        Instant end = approved(request, NOW).expiresAt().orElseThrow();

        assertThat(store.endingBy(NOW, end.minusSeconds(1), 1000)).extracting(AccessRequest::id)
                .doesNotContain(request.id());
        assertThat(store.endingBy(end.minusSeconds(600), end, 1000)).extracting(AccessRequest::id)
                .contains(request.id());
        assertThat(store.toldEnding(request.id(), end.minusSeconds(600))).isTrue();
        assertThat(store.toldEnding(request.id(), end.minusSeconds(500))).isFalse();
        assertThat(store.endingBy(end.minusSeconds(600), end, 1000)).extracting(AccessRequest::id)
                .doesNotContain(request.id());
    }
}
