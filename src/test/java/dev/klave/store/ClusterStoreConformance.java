package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.access.Grant;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.ClusterStore;
import dev.klave.credential.Credential;
import dev.klave.storage.AlreadyExistsException;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link ClusterStore} must do, whatever the database behind it. */
abstract class ClusterStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private ClusterStore store;
    private JdbiGrantStore grants;
    private JdbiCredentialStore credentials;

    @Override
    protected void setUp(Database database) {
        store = new JdbiClusterStore(database);
        grants = new JdbiGrantStore(database);
        credentials = new JdbiCredentialStore(database);
    }

    private static ClusterId newId(String prefix) {
        return new ClusterId(prefix + "-" + UUID.randomUUID().toString().substring(0, 8));
    }

    private Cluster registered(ClusterId id) {
        Cluster cluster = new Cluster(id, "Producción " + id.value(), NOW, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
        store.create(cluster);
        return cluster;
    }

    @Test
    void whatAPassLearnedOfTheServerReadsBackAndIsUnknownBefore() {
        Cluster cluster = registered(newId("caps"));

        assertThat(store.capabilities(cluster.id())).isEqualTo(dev.klave.cluster.ClusterCapabilities.UNKNOWN);
        store.recordCapabilities(cluster.id(), "v1.26.0", false);
        assertThat(store.capabilities(cluster.id())).isEqualTo(new dev.klave.cluster.ClusterCapabilities(
                Optional.of("v1.26.0"), Optional.of(false)));
        store.recordCapabilities(cluster.id(), "v1.32.0", true);
        assertThat(store.capabilities(cluster.id()).aggregatedDiscovery()).contains(true);
        assertThat(store.capabilities(newId("none"))).isEqualTo(dev.klave.cluster.ClusterCapabilities.UNKNOWN);
    }

    @Test
    void aRegisteredClusterReadsBackPendingUntilItsTokens() {
        Cluster cluster = registered(newId("prod"));

        Cluster read = store.findById(cluster.id()).orElseThrow();
        assertThat(read).isEqualTo(cluster);
        assertThat(read.status().code()).isEqualTo("pending");
    }

    @Test
    void aClusterCreatedWithEverythingReadsBackWhole() {
        Cluster full = new Cluster(newId("full"), "Completo", NOW.plusMillis(5), Optional.of("sealed-json"),
                Optional.of(NOW.plusMillis(6)), Optional.of(NOW.plusMillis(7)), Optional.of("forbidden: rbac"));
        store.create(full);

        assertThat(store.findById(full.id())).contains(full);
    }

    @Test
    void anUnknownIdFindsNothing() {
        assertThat(store.findById(newId("unknown"))).isEmpty();
    }

    @Test
    void anIdIsTakenOnce() {
        Cluster first = registered(newId("taken"));
        Cluster again = new Cluster(first.id(), "Otro nombre", NOW.plusSeconds(1), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());

        assertThatThrownBy(() -> store.create(again)).isInstanceOf(AlreadyExistsException.class);
        assertThat(store.findById(first.id())).contains(first);
    }

    @Test
    void theListIsInIdOrder() {
        ClusterId b = new ClusterId("order-b-" + UUID.randomUUID().toString().substring(0, 8));
        ClusterId a = new ClusterId("order-a-" + UUID.randomUUID().toString().substring(0, 8));
        ClusterId c = new ClusterId("order-c-" + UUID.randomUUID().toString().substring(0, 8));
        registered(b);
        registered(a);
        registered(c);

        assertThat(store.list()).extracting(Cluster::id).containsSubsequence(a, b, c);
        assertThat(store.list()).extracting(cluster -> cluster.id().value()).isSorted();
    }

    @Test
    void settingTheSecretsMakesItReadyAndClearsTheLastError() {
        ClusterId id = registered(newId("secrets")).id();
        store.recordReconciliation(id, NOW.plusSeconds(1), Optional.of("no se pudo hablar con el API server"));
        assertThat(store.findById(id).orElseThrow().status().code()).as("no tokens yet").isEqualTo("pending");

        store.setSecrets(id, "sealed-1", NOW.plusSeconds(2));

        Cluster ready = store.findById(id).orElseThrow();
        assertThat(ready.sealedSecrets()).contains("sealed-1");
        assertThat(ready.tokensSetAt()).contains(NOW.plusSeconds(2));
        assertThat(ready.lastError()).isEmpty();
        assertThat(ready.lastReconciledAt()).as("the pass happened all the same").contains(NOW.plusSeconds(1));
        assertThat(ready.status().code()).isEqualTo("ready");

        store.setSecrets(id, "sealed-2", NOW.plusSeconds(3));
        assertThat(store.findById(id).orElseThrow().sealedSecrets()).as("replaced").contains("sealed-2");
        assertThat(store.findById(id).orElseThrow().tokensSetAt()).contains(NOW.plusSeconds(3));
    }

    @Test
    void aFailedPassIsAnErrorUntilAPassSucceeds() {
        ClusterId id = registered(newId("pass")).id();
        store.setSecrets(id, "sealed", NOW);

        store.recordReconciliation(id, NOW.plusSeconds(10), Optional.of("forbidden"));
        Cluster failed = store.findById(id).orElseThrow();
        assertThat(failed.lastReconciledAt()).contains(NOW.plusSeconds(10));
        assertThat(failed.lastError()).contains("forbidden");
        assertThat(failed.status().code()).isEqualTo("error");

        store.recordReconciliation(id, NOW.plusSeconds(20), Optional.empty());
        Cluster ok = store.findById(id).orElseThrow();
        assertThat(ok.lastReconciledAt()).contains(NOW.plusSeconds(20));
        assertThat(ok.lastError()).isEmpty();
        assertThat(ok.status().code()).isEqualTo("ready");
    }

    @Test
    void updatesOfAnUnknownClusterCreateNothing() {
        ClusterId unknown = newId("ghost");

        store.setSecrets(unknown, "sealed", NOW);
        store.recordReconciliation(unknown, NOW, Optional.of("error"));

        assertThat(store.findById(unknown)).isEmpty();
    }

    @Test
    void deletingAClusterDeletesItsGrantsAndNoOtherClustersOnes() {
        ClusterId gone = registered(newId("gone")).id();
        ClusterId kept = registered(newId("kept")).id();
        Grant onGone = grant(gone);
        Grant onKept = grant(kept);

        assertThat(store.delete(gone)).isTrue();

        assertThat(store.findById(gone)).isEmpty();
        assertThat(store.list()).extracting(Cluster::id).doesNotContain(gone).contains(kept);
        assertThat(grants.findById(onGone.id())).isEmpty();
        assertThat(grants.findById(onKept.id())).contains(onKept);
        assertThat(store.delete(gone)).as("deleted already").isFalse();
    }

    @Test
    void deletingAnUnknownClusterIsFalse() {
        assertThat(store.delete(newId("never"))).isFalse();
    }

    @Test
    void deletingAClusterLeavesCredentialsRestrictedToItForTheirOwnRevocation() {
        ClusterId gone = registered(newId("restricted")).id();
        Credential restricted = new Credential(UUID.randomUUID().toString(), "hash-" + UUID.randomUUID(),
                storedPerson("cluster"), Optional.of(gone), "ci", "", NOW, NOW.plusSeconds(3600), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
        credentials.create(restricted);

        assertThat(store.delete(gone)).isTrue();

        assertThat(credentials.findById(restricted.id())).contains(restricted);
    }

    @Test
    void anIdFreedByADeleteCanBeRegisteredAgain() {
        ClusterId id = registered(newId("again")).id();
        store.setSecrets(id, "sealed", NOW);
        store.delete(id);

        Cluster fresh = registered(id);

        assertThat(store.findById(id)).contains(fresh);
        assertThat(grants.find(Optional.empty(), Optional.of(id), true)).isEmpty();
    }

    private Grant grant(ClusterId cluster) {
        Grant grant = new Grant(UUID.randomUUID().toString(), storedPerson("cluster"), cluster, Tier.VIEW, Scope.ALL,
                Optional.empty(), "", NOW, Optional.empty(), Optional.empty(), Optional.empty());
        grants.create(grant);
        return grant;
    }
}
