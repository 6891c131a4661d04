package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.access.Grant;
import dev.klave.access.GrantFilter;
import dev.klave.access.GrantStore;
import dev.klave.access.ListedGrant;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.storage.AlreadyExistsException;
import dev.klave.storage.Keyset;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link GrantStore} must do, whatever the database behind it. */
abstract class GrantStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private GrantStore store;
    private JdbiClusterStore clusters;

    @Override
    protected void setUp(Database database) {
        store = new JdbiGrantStore(database);
        clusters = new JdbiClusterStore(database);
    }

    private ClusterId storedCluster() {
        ClusterId id = new ClusterId("c-" + UUID.randomUUID().toString().substring(0, 8));
        clusters.create(new Cluster(id, "Cluster", NOW, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty()));
        return id;
    }

    private Grant stored(SubjectId subject, ClusterId cluster, Tier tier, Scope scope, Instant createdAt) {
        Grant grant = new Grant(UUID.randomUUID().toString(), subject, cluster, tier, scope, Optional.empty(),
                "guardia: ñ", createdAt, Optional.of("admin-1"), Optional.empty(), Optional.empty());
        store.create(grant);
        return grant;
    }

    @Test
    void aStoredGrantReadsBackWhole() {
        Grant plain = stored(storedPerson("grant"), storedCluster(), Tier.EDIT, new Scope("team-a"), NOW);
        Grant expiring = new Grant(UUID.randomUUID().toString(), storedPerson("grant"), storedCluster(),
                Tier.CLUSTER_ADMIN, Scope.ALL, Optional.of(NOW.plus(Duration.ofHours(8)).plusMillis(7)), "",
                NOW.plusMillis(3), Optional.empty(), Optional.empty(), Optional.empty());
        store.create(expiring);

        assertThat(store.findById(plain.id())).contains(plain);
        assertThat(store.findById(expiring.id())).as("an expiry, no creator, millisecond times").contains(expiring);
    }

    @Test
    void everyTierAndTheWildcardScopeReadBack() {
        SubjectId ana = storedPerson("grant");
        ClusterId cluster = storedCluster();
        for (Tier tier : Tier.values()) {
            Grant grant = stored(ana, cluster, tier, Scope.ALL, NOW);
            assertThat(store.findById(grant.id())).contains(grant);
        }
    }

    @Test
    void anUnknownIdFindsNothing() {
        assertThat(store.findById(UUID.randomUUID().toString())).isEmpty();
    }

    @Test
    void anIdIsNeverStoredTwice() {
        Grant grant = stored(storedPerson("grant"), storedCluster(), Tier.VIEW, Scope.ALL, NOW);
        Grant sameId = new Grant(grant.id(), grant.subjectId(), grant.clusterId(), Tier.ADMIN, Scope.ALL,
                Optional.empty(), "", NOW, Optional.empty(), Optional.empty(), Optional.empty());

        assertThatThrownBy(() -> store.create(sameId)).isInstanceOf(AlreadyExistsException.class);
        assertThat(store.findById(grant.id())).contains(grant);
    }

    @Test
    void aGrantNeedsItsClusterToExist() {
        Grant orphan = new Grant(UUID.randomUUID().toString(), storedPerson("grant"), new ClusterId("never-registered"),
                Tier.VIEW, Scope.ALL, Optional.empty(), "", NOW, Optional.empty(), Optional.empty(), Optional.empty());

        assertThatThrownBy(() -> store.create(orphan)).isInstanceOf(RuntimeException.class);
        assertThat(store.findById(orphan.id())).isEmpty();
    }

    @Test
    void findFiltersBySubjectAndClusterNewestFirst() {
        SubjectId ana = storedPerson("grant");
        SubjectId eva = storedPerson("grant");
        ClusterId prod = storedCluster();
        ClusterId staging = storedCluster();
        Grant anaProdOld = stored(ana, prod, Tier.VIEW, Scope.ALL, NOW.minusSeconds(60));
        Grant anaProdNew = stored(ana, prod, Tier.EDIT, new Scope("team-a"), NOW);
        Grant anaStaging = stored(ana, staging, Tier.ADMIN, new Scope("team-b"), NOW.minusSeconds(30));
        Grant evaProd = stored(eva, prod, Tier.VIEW, Scope.ALL, NOW.minusSeconds(10));

        assertThat(store.find(Optional.of(ana), Optional.of(prod), false)).containsExactly(anaProdNew, anaProdOld);
        assertThat(store.find(Optional.of(ana), Optional.empty(), false))
                .containsExactly(anaProdNew, anaStaging, anaProdOld);
        assertThat(store.find(Optional.empty(), Optional.of(prod), false))
                .containsExactly(anaProdNew, evaProd, anaProdOld);
        assertThat(store.find(Optional.of(eva), Optional.of(staging), false)).isEmpty();
        assertThat(store.find(Optional.empty(), Optional.empty(), false))
                .contains(anaProdOld, anaProdNew, anaStaging, evaProd)
                .extracting(Grant::createdAt).isSortedAccordingTo(java.util.Comparator.reverseOrder());
    }

    @Test
    void theListingPagesByKeysetWithTheHoldersLoginAndStateAndTheSameFilters() {
        SubjectId ana = storedPerson("listed");
        ClusterId prod = storedCluster();
        ClusterId staging = storedCluster();
        List<Grant> grants = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            grants.add(stored(ana, i % 2 == 0 ? prod : staging, Tier.VIEW, new Scope("ns-" + i),
                    NOW.minusSeconds(i < 2 ? 0 : i)));
        }
        Grant revoked = grants.get(4);
        store.revoke(revoked.id(), NOW.plusSeconds(1), "admin-2");
        new JdbiSubjectStore(database()).update(ana, subject -> subject.withDisabledAt(Optional.of(NOW)));
        List<String> expected = grants.stream().filter(grant -> grant != revoked)
                .sorted(java.util.Comparator.comparing(Grant::createdAt).reversed().thenComparing(Grant::id))
                .map(Grant::id).toList();

        List<ListedGrant> seen = new java.util.ArrayList<>();
        Optional<Keyset> after = Optional.empty();
        GrantFilter anas = new GrantFilter(Optional.of(ana), Optional.empty(), false);
        for (List<ListedGrant> page = store.list(anas, after, 3); ; page = store.list(anas, after, 3)) {
            seen.addAll(page);
            if (page.size() < 3) {
                break;
            }
            after = Optional.of(page.getLast().keyset());
        }

        assertThat(seen).extracting(row -> row.grant().id()).containsExactlyElementsOf(expected);
        assertThat(seen).allSatisfy(row -> {
            assertThat(row.holderLogin().value()).startsWith("listed-");
            assertThat(row.holderEnabled()).isFalse();
        });
        assertThat(store.list(new GrantFilter(Optional.empty(), Optional.of(prod), true), Optional.empty(), 10))
                .extracting(row -> row.grant().id()).containsExactly(grants.get(0).id(), grants.get(2).id(),
                        grants.get(4).id());
        assertThat(store.list(new GrantFilter(Optional.of(ana), Optional.of(staging), false), Optional.empty(), 10))
                .extracting(row -> row.grant().id()).containsExactly(grants.get(1).id(), grants.get(3).id());
    }

    @Test
    void revokedGrantsAreListedOnlyWhenAskedFor() {
        SubjectId ana = storedPerson("grant");
        ClusterId prod = storedCluster();
        Grant kept = stored(ana, prod, Tier.VIEW, Scope.ALL, NOW);
        Grant revoked = stored(ana, prod, Tier.EDIT, new Scope("team-a"), NOW.plusSeconds(1));
        store.revoke(revoked.id(), NOW.plusSeconds(2), "admin-2");

        assertThat(store.find(Optional.of(ana), Optional.empty(), false)).containsExactly(kept);
        assertThat(store.find(Optional.of(ana), Optional.empty(), true)).extracting(Grant::id)
                .containsExactly(revoked.id(), kept.id());
    }

    @Test
    void revokingRecordsWhenAndWhoOnceAndOnlyOnce() {
        Grant grant = stored(storedPerson("grant"), storedCluster(), Tier.EDIT, new Scope("team-a"), NOW);

        assertThat(store.revoke(grant.id(), NOW.plusSeconds(5), "admin-2")).isTrue();
        assertThat(store.revoke(grant.id(), NOW.plusSeconds(9), "admin-3")).as("already revoked").isFalse();

        Grant revoked = store.findById(grant.id()).orElseThrow();
        assertThat(revoked.revokedAt()).contains(NOW.plusSeconds(5));
        assertThat(revoked.revokedBy()).contains("admin-2");
        assertThat(revoked.activeAt(NOW.plusSeconds(6))).isFalse();
        assertThat(revoked.tier()).isEqualTo(Tier.EDIT);
    }

    @Test
    void revokingAnUnknownGrantIsFalse() {
        assertThat(store.revoke(UUID.randomUUID().toString(), NOW, "admin-1")).isFalse();
    }

    @Test
    void anExpiredGrantIsStillListedAndStopsCountingAtItsExpiry() {
        SubjectId ana = storedPerson("grant");
        Grant expiring = new Grant(UUID.randomUUID().toString(), ana, storedCluster(), Tier.VIEW, Scope.ALL,
                Optional.of(NOW.plusSeconds(60)), "", NOW, Optional.empty(), Optional.empty(), Optional.empty());
        store.create(expiring);

        assertThat(store.find(Optional.of(ana), Optional.empty(), false)).containsExactly(expiring);
        Grant read = store.findById(expiring.id()).orElseThrow();
        assertThat(read.activeAt(NOW.plusSeconds(59))).isTrue();
        assertThat(read.activeAt(NOW.plusSeconds(60))).isFalse();
    }

    @Test
    void deletingTheClusterDeletesItsGrantsOnly() {
        SubjectId ana = storedPerson("grant");
        ClusterId gone = storedCluster();
        ClusterId kept = storedCluster();
        Grant onGone = stored(ana, gone, Tier.VIEW, Scope.ALL, NOW);
        Grant revokedOnGone = stored(ana, gone, Tier.EDIT, Scope.ALL, NOW);
        store.revoke(revokedOnGone.id(), NOW.plusSeconds(1), "admin-1");
        Grant onKept = stored(ana, kept, Tier.VIEW, Scope.ALL, NOW);

        assertThat(clusters.delete(gone)).isTrue();

        assertThat(store.findById(onGone.id())).isEmpty();
        assertThat(store.findById(revokedOnGone.id())).isEmpty();
        assertThat(store.find(Optional.empty(), Optional.of(gone), true)).isEmpty();
        assertThat(store.find(Optional.of(ana), Optional.empty(), true)).containsExactly(onKept);
    }
}
