package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import dev.klave.account.SubjectId;
import dev.klave.agent.approval.Actor;
import dev.klave.agent.approval.HeldCall;
import dev.klave.agent.approval.WriteRequest;
import dev.klave.agent.approval.WriteRequestStore;
import dev.klave.agent.approval.WriteStatus;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.storage.AlreadyExistsException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link WriteRequestStore} must do, whatever the database behind it. */
abstract class WriteRequestStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final HeldCall APPLY = new HeldCall(Method.PATCH,
            ClusterPath.of("apis", "apps", "v1", "namespaces", "team-a", "deployments", "web#"),
            Query.NONE.with("fieldManager", "service-mcp"), Optional.of("{\"spec\":{\"replicas\":3}}"), Optional.of("application/apply-patch+yaml"));

    private WriteRequestStore store;
    private JdbiClusterStore clusters;

    @Override
    protected void setUp(Database database) {
        store = new JdbiWriteRequestStore(database);
        clusters = new JdbiClusterStore(database);
    }

    private ClusterId storedCluster() {
        ClusterId id = new ClusterId("c-" + UUID.randomUUID().toString().substring(0, 8));
        clusters.create(new Cluster(id, "Cluster", NOW, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty()));
        return id;
    }

    private static WriteRequest request(Actor actor, Optional<SubjectId> decider, ClusterId cluster, String hash,
            Instant createdAt) {
        return new WriteRequest("wr_" + UUID.randomUUID(), actor, decider, cluster, "team-a", "scale", "scale",
                "deployments", "web", hash, APPLY, "{\"antes\":{\"replicas\":1},\"después\":{\"replicas\":3}}",
                WriteStatus.PENDING, createdAt, createdAt.plus(Duration.ofHours(1)), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    private WriteRequest stored(Actor actor, ClusterId cluster, String hash, Instant createdAt) {
        WriteRequest request = request(actor, Optional.of(actor.subject()), cluster, hash, createdAt);
        store.create(request);
        return request;
    }

    private Actor session(SubjectId subject) {
        return new Actor(subject, Optional.empty(), Optional.of("session-" + UUID.randomUUID()));
    }

    @Test
    void aStoredRequestReadsBackWhole() {
        WriteRequest full = stored(session(storedPerson("write")), storedCluster(), "hash-1", NOW.plusMillis(7));
        SubjectId bot = storedPerson("bot");
        WriteRequest bare = new WriteRequest("wr_" + UUID.randomUUID(), new Actor(bot, Optional.of("cred-1"),
                Optional.empty()), Optional.empty(), storedCluster(), "", "delete_resource", "delete", "namespaces",
                "team-z", "hash-2", new HeldCall(Method.DELETE, ClusterPath.of("api", "v1", "namespaces", "team-z"), Query.NONE, Optional.empty(),
                Optional.empty()), "{}", WriteStatus.PENDING, NOW, NOW.plusSeconds(60), Optional.empty(),
                Optional.empty(), Optional.empty());
        store.create(bare);

        assertThat(store.findById(full.id())).contains(full);
        assertThat(store.findById(bare.id())).as("no decider, no body, cluster-scoped").contains(bare);
        assertThat(store.findById("wr_unknown")).isEmpty();
    }

    @Test
    void anIdIsNeverStoredTwice() {
        WriteRequest request = stored(session(storedPerson("write")), storedCluster(), "hash", NOW);

        assertThatThrownBy(() -> store.create(request)).isInstanceOf(AlreadyExistsException.class);
    }

    @Test
    void thePendingRequestIsFoundForTheSameActorAndArgumentsOnly() {
        SubjectId ana = storedPerson("write");
        Actor actor = session(ana);
        ClusterId cluster = storedCluster();
        WriteRequest pending = stored(actor, cluster, "hash-a", NOW);
        Actor bot = new Actor(storedPerson("bot"), Optional.of("cred-1"), Optional.empty());
        WriteRequest botsOwn = stored(bot, cluster, "hash-a", NOW);

        assertThat(store.findPending(actor, "hash-a", NOW.plusSeconds(1))).contains(pending);
        assertThat(store.findPending(actor, "hash-b", NOW.plusSeconds(1))).as("other arguments").isEmpty();
        assertThat(store.findPending(session(ana), "hash-a", NOW.plusSeconds(1))).as("another session").isEmpty();
        assertThat(store.findPending(new Actor(ana, Optional.of("cred-1"), Optional.empty()), "hash-a",
                NOW.plusSeconds(1))).as("a credential, not the session").isEmpty();
        assertThat(store.findPending(bot, "hash-a", NOW)).contains(botsOwn);
        assertThat(store.findPending(new Actor(bot.subject(), Optional.of("cred-2"), Optional.empty()), "hash-a",
                NOW)).as("another credential of the bot").isEmpty();
        assertThat(store.findPending(actor, "hash-a", pending.expiresAt())).as("run out").isEmpty();
        store.decide(pending.id(), WriteStatus.DENIED, NOW.plusSeconds(2), "ana");
        assertThat(store.findPending(actor, "hash-a", NOW.plusSeconds(3))).as("decided").isEmpty();
    }

    @Test
    void onlyPendingUnexpiredRequestsOfTheSubjectCount() {
        SubjectId ana = storedPerson("write");
        ClusterId cluster = storedCluster();
        WriteRequest first = stored(session(ana), cluster, "one", NOW);
        stored(session(ana), cluster, "two", NOW.plusSeconds(600));
        WriteRequest decided = stored(session(ana), cluster, "three", NOW);
        store.decide(decided.id(), WriteStatus.APPROVED, NOW.plusSeconds(1), "ana");
        stored(session(storedPerson("write")), cluster, "other's", NOW);

        assertThat(store.countPending(ana, NOW.plusSeconds(700))).isEqualTo(2);
        assertThat(store.countPending(ana, first.expiresAt())).as("the first ran out").isEqualTo(1);
        database().inTransaction(() -> {
            store.lockSubject(ana);
            assertThat(store.countPending(ana, NOW.plusSeconds(700))).isEqualTo(2);
        });
    }

    @Test
    void aDecisionIsMadeOnceAndOnlyWhilePendingAndUnexpired() {
        ClusterId cluster = storedCluster();
        WriteRequest request = stored(session(storedPerson("write")), cluster, "hash", NOW);
        WriteRequest late = stored(session(storedPerson("write")), cluster, "hash", NOW);

        assertThat(store.decide(request.id(), WriteStatus.APPROVED, NOW.plusSeconds(5), "ana")).isTrue();
        assertThat(store.decide(request.id(), WriteStatus.DENIED, NOW.plusSeconds(6), "root")).isFalse();
        assertThat(store.decide(request.id(), WriteStatus.APPROVED, NOW.plusSeconds(6), "root")).isFalse();
        assertThat(store.decide(late.id(), WriteStatus.APPROVED, late.expiresAt(), "ana")).as("run out").isFalse();
        assertThat(store.decide("wr_unknown", WriteStatus.APPROVED, NOW, "ana")).isFalse();

        WriteRequest approved = store.findById(request.id()).orElseThrow();
        assertThat(approved.status()).isEqualTo(WriteStatus.APPROVED);
        assertThat(approved.decidedAt()).contains(NOW.plusSeconds(5));
        assertThat(approved.decidedBy()).contains("ana");
        assertThat(store.findById(late.id()).orElseThrow().statusAt(late.expiresAt())).isEqualTo(WriteStatus.EXPIRED);
    }

    @Test
    void onlyAnApprovedRequestIsExecutedAndOnlyOnce() {
        ClusterId cluster = storedCluster();
        WriteRequest approved = stored(session(storedPerson("write")), cluster, "hash", NOW);
        WriteRequest pending = stored(session(storedPerson("write")), cluster, "hash", NOW);
        WriteRequest denied = stored(session(storedPerson("write")), cluster, "hash", NOW);
        store.decide(approved.id(), WriteStatus.APPROVED, NOW.plusSeconds(1), "ana");
        store.decide(denied.id(), WriteStatus.DENIED, NOW.plusSeconds(1), "ana");

        assertThat(store.markExecuted(approved.id(), NOW.plusSeconds(2))).isTrue();
        assertThat(store.markExecuted(approved.id(), NOW.plusSeconds(3))).as("again").isFalse();
        assertThat(store.markExecuted(pending.id(), NOW.plusSeconds(2))).isFalse();
        assertThat(store.markExecuted(denied.id(), NOW.plusSeconds(2))).isFalse();

        WriteRequest executed = store.findById(approved.id()).orElseThrow();
        assertThat(executed.status()).isEqualTo(WriteStatus.EXECUTED);
        assertThat(executed.executedAt()).contains(NOW.plusSeconds(2));
        assertThat(executed.decidedBy()).contains("ana");
    }

    @Test
    void aDecidersListHasPendingFirstThenTheRestNewestFirst() {
        SubjectId ana = storedPerson("write");
        ClusterId cluster = storedCluster();
        WriteRequest oldPending = stored(session(ana), cluster, "1", NOW);
        WriteRequest newDecided = stored(session(ana), cluster, "2", NOW.plusSeconds(30));
        WriteRequest newPending = stored(session(ana), cluster, "3", NOW.plusSeconds(20));
        WriteRequest expired = stored(session(ana), cluster, "4", NOW.minus(Duration.ofHours(2)));
        store.decide(newDecided.id(), WriteStatus.DENIED, NOW.plusSeconds(31), "ana");
        WriteRequest bots = request(new Actor(storedPerson("bot"), Optional.of("cred"), Optional.empty()),
                Optional.empty(), cluster, "5", NOW);
        store.create(bots);
        Instant now = NOW.plusSeconds(40);

        assertThat(store.forDecider(Optional.of(ana), now, 10)).extracting(WriteRequest::id)
                .containsExactly(newPending.id(), oldPending.id(), newDecided.id(), expired.id());
        assertThat(store.forDecider(Optional.of(ana), now, 1)).extracting(WriteRequest::id)
                .containsExactly(newPending.id());
        assertThat(store.forDecider(Optional.empty(), now, 100)).contains(bots)
                .allSatisfy(request -> assertThat(request.decider()).isEmpty());
    }

    @Test
    void deletingTheClusterDeletesItsRequests() {
        ClusterId gone = storedCluster();
        WriteRequest request = stored(session(storedPerson("write")), gone, "hash", NOW);

        assertThat(clusters.delete(gone)).isTrue();

        assertThat(store.findById(request.id())).isEmpty();
    }
}
