package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.credential.Credential;
import dev.klave.credential.CredentialFilter;
import dev.klave.credential.CredentialStatus;
import dev.klave.credential.CredentialStore;
import dev.klave.credential.ListedCredential;
import dev.klave.storage.Keyset;
import dev.klave.storage.AlreadyExistsException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link CredentialStore} must do, whatever the database behind it. */
abstract class CredentialStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private CredentialStore store;

    @Override
    protected void setUp(Database database) {
        store = new JdbiCredentialStore(database);
    }

    private static Credential credential(SubjectId owner, Optional<ClusterId> cluster, Instant createdAt) {
        return new Credential(UUID.randomUUID().toString(), "hash-" + UUID.randomUUID(), owner, cluster, "portátil",
                "nota: ñ", createdAt, createdAt.plus(Duration.ofHours(12)), Optional.of("admin-1"), Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    private Credential stored(SubjectId owner, Optional<ClusterId> cluster, Instant createdAt) {
        Credential credential = credential(owner, cluster, createdAt);
        store.create(credential);
        return credential;
    }

    private static ClusterId cluster(String prefix) {
        return new ClusterId(prefix + "-" + UUID.randomUUID().toString().substring(0, 8));
    }

    @Test
    void aStoredCredentialReadsBackWholeByItsIdAndByTheHashOfItsToken() {
        Credential restricted = stored(storedPerson("cred"), Optional.of(cluster("prod")), NOW);
        Credential anywhere = new Credential(UUID.randomUUID().toString(), "hash-" + UUID.randomUUID(),
                storedPerson("cred"), Optional.empty(), "", "", NOW.plusMillis(123), NOW.plus(Duration.ofDays(30)),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        store.create(anywhere);

        assertThat(store.findById(restricted.id())).contains(restricted);
        assertThat(store.findByTokenHash(restricted.tokenHash())).contains(restricted);
        assertThat(store.findById(anywhere.id())).as("no cluster, no creator, millisecond times").contains(anywhere);
        assertThat(store.findByTokenHash(anywhere.tokenHash())).contains(anywhere);
    }

    @Test
    void anUnknownIdOrHashFindsNothing() {
        stored(storedPerson("cred"), Optional.empty(), NOW);

        assertThat(store.findById(UUID.randomUUID().toString())).isEmpty();
        assertThat(store.findByTokenHash("hash-unknown")).isEmpty();
    }

    @Test
    void aTokenHashIsNeverStoredTwice() {
        Credential first = stored(storedPerson("cred"), Optional.empty(), NOW);
        Credential sameHash = new Credential(UUID.randomUUID().toString(), first.tokenHash(), storedPerson("cred"),
                Optional.empty(), "otra", "", NOW, NOW.plusSeconds(60), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());

        assertThatThrownBy(() -> store.create(sameHash)).isInstanceOf(AlreadyExistsException.class);
        assertThat(store.findById(sameHash.id())).isEmpty();
        assertThat(store.findByTokenHash(first.tokenHash())).contains(first);
    }

    @Test
    void anIdIsNeverStoredTwice() {
        Credential first = stored(storedPerson("cred"), Optional.empty(), NOW);
        Credential sameId = new Credential(first.id(), "hash-" + UUID.randomUUID(), first.subjectId(),
                Optional.empty(), "otra", "", NOW, NOW.plusSeconds(60), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());

        assertThatThrownBy(() -> store.create(sameId)).isInstanceOf(AlreadyExistsException.class);
        assertThat(store.findById(first.id())).contains(first);
    }

    @Test
    void listingIsNewestFirstAndOneSubjectsListHoldsOnlyHers() {
        SubjectId ana = storedPerson("cred");
        SubjectId eva = storedPerson("cred");
        Credential older = stored(ana, Optional.empty(), NOW.minusSeconds(60));
        Credential newer = stored(ana, Optional.of(cluster("prod")), NOW);
        Credential evas = stored(eva, Optional.empty(), NOW.minusSeconds(30));

        assertThat(listOf(Optional.of(ana))).containsExactly(newer, older);
        assertThat(listOf(Optional.of(eva))).containsExactly(evas);
        assertThat(listOf(Optional.of(new SubjectId(UUID.randomUUID().toString())))).isEmpty();
        List<Credential> all = listOf(Optional.empty());
        assertThat(all).contains(newer, older, evas);
        assertThat(all).extracting(Credential::createdAt).isSortedAccordingTo(java.util.Comparator.reverseOrder());
    }

    private List<Credential> listOf(Optional<SubjectId> owner) {
        CredentialFilter filter = owner.map(CredentialFilter.ANY::ofSubject).orElse(CredentialFilter.ANY);
        return store.list(filter, NOW, Optional.empty(), Integer.MAX_VALUE).stream()
                .map(ListedCredential::credential).toList();
    }

    @Test
    void pagesFollowOneAnotherByKeysetEachRowOnceEvenWithinOneMillisecond() {
        SubjectId owner = storedPerson("pages");
        List<Credential> created = new java.util.ArrayList<>();
        for (int i = 0; i < 7; i++) {
            // Three share a millisecond: the id orders them, and the keyset must not skip or repeat one.
            created.add(stored(owner, Optional.empty(), NOW.minusSeconds(i < 3 ? 0 : i)));
        }
        List<Credential> expected = created.stream().sorted(java.util.Comparator.comparing(Credential::createdAt)
                .reversed().thenComparing(Credential::id)).toList();

        List<Credential> seen = new java.util.ArrayList<>();
        Optional<Keyset> after = Optional.empty();
        int pages = 0;
        while (true) {
            List<ListedCredential> page = store.list(CredentialFilter.ANY.ofSubject(owner), NOW, after, 2);
            pages++;
            page.forEach(row -> seen.add(row.credential()));
            if (page.size() < 2) {
                break;
            }
            after = Optional.of(page.getLast().keyset());
        }

        assertThat(seen).containsExactlyElementsOf(expected);
        assertThat(pages).isEqualTo(4);
    }

    @Test
    void theListingCarriesTheOwnersLoginAndFiltersByStateClusterAndText() {
        SubjectId owner = storedPerson("filtros");
        String login = new JdbiSubjectStore(database()).findById(owner).orElseThrow().login().value();
        ClusterId prod = cluster("prod");
        Credential active = stored(owner, Optional.of(prod), NOW.minusSeconds(10));
        Credential expired = new Credential(UUID.randomUUID().toString(), "hash-" + UUID.randomUUID(), owner,
                Optional.empty(), "Portátil 100% de Ana_B", "", NOW.minus(Duration.ofDays(2)),
                NOW.minus(Duration.ofDays(1)), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        store.create(expired);
        Credential revoked = stored(owner, Optional.of(prod), NOW.minusSeconds(20));
        store.revoke(revoked.id(), NOW.minusSeconds(5), Optional.empty(), Optional.of("perdida"));
        CredentialFilter mine = CredentialFilter.ANY.ofSubject(owner);

        assertThat(store.list(mine, NOW, Optional.empty(), 10)).extracting(ListedCredential::ownerLogin)
                .extracting(Object::toString).containsOnly(login);
        assertThat(ids(with(mine, CredentialStatus.ACTIVE))).containsExactly(active.id());
        assertThat(ids(with(mine, CredentialStatus.EXPIRED))).containsExactly(expired.id());
        assertThat(ids(with(mine, CredentialStatus.REVOKED))).containsExactly(revoked.id());
        assertThat(ids(new CredentialFilter(Optional.empty(), Optional.of(prod), Optional.empty(), Optional.empty())))
                .containsExactly(active.id(), revoked.id());
        assertThat(ids(new CredentialFilter(Optional.of(owner), Optional.empty(), Optional.empty(),
                Optional.of("100% DE ANA_b")))).as("any case; %% and _ are plain characters").containsExactly(expired.id());
        assertThat(ids(new CredentialFilter(Optional.of(owner), Optional.empty(), Optional.empty(),
                Optional.of("100_")))).isEmpty();
        assertThat(ids(new CredentialFilter(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(login)))).as("by the owner's login").hasSize(3);
    }

    private static CredentialFilter with(CredentialFilter filter, CredentialStatus status) {
        return new CredentialFilter(filter.subject(), filter.cluster(), Optional.of(status), filter.text());
    }

    private List<String> ids(CredentialFilter filter) {
        return store.list(filter, NOW, Optional.empty(), 100).stream().map(row -> row.credential().id()).toList();
    }

    @Test
    void revokingRecordsWhenWhoAndWhyOnceAndOnlyOnce() {
        Credential credential = stored(storedPerson("cred"), Optional.empty(), NOW);

        assertThat(store.revoke(credential.id(), NOW.plusSeconds(5), Optional.of("admin-2"), Optional.of("perdida")))
                .isTrue();
        assertThat(store.revoke(credential.id(), NOW.plusSeconds(9), Optional.of("admin-3"), Optional.empty()))
                .as("already revoked").isFalse();

        Credential revoked = store.findById(credential.id()).orElseThrow();
        assertThat(revoked.revokedAt()).contains(NOW.plusSeconds(5));
        assertThat(revoked.revokedBy()).contains("admin-2");
        assertThat(revoked.revokeReason()).contains("perdida");
        assertThat(revoked.statusAt(NOW.plusSeconds(6)).code()).isEqualTo("revoked");
        assertThat(store.findByTokenHash(credential.tokenHash())).as("still found, to be refused as revoked")
                .contains(revoked);
    }

    @Test
    void revokingWithoutWhoOrWhyLeavesThemEmpty() {
        Credential credential = stored(storedPerson("cred"), Optional.empty(), NOW);

        assertThat(store.revoke(credential.id(), NOW.plusSeconds(1), Optional.empty(), Optional.empty())).isTrue();

        Credential revoked = store.findById(credential.id()).orElseThrow();
        assertThat(revoked.revokedAt()).contains(NOW.plusSeconds(1));
        assertThat(revoked.revokedBy()).isEmpty();
        assertThat(revoked.revokeReason()).isEmpty();
    }

    @Test
    void revokingAnUnknownCredentialIsFalse() {
        assertThat(store.revoke(UUID.randomUUID().toString(), NOW, Optional.empty(), Optional.empty())).isFalse();
    }

    @Test
    void expiryIsReadFromTheStoredTimeNotWrittenByTheStore() {
        Credential credential = stored(storedPerson("cred"), Optional.empty(), NOW);

        Credential read = store.findById(credential.id()).orElseThrow();
        assertThat(read.statusAt(NOW.plus(Duration.ofHours(12)).minusMillis(1)).code()).isEqualTo("active");
        assertThat(read.statusAt(NOW.plus(Duration.ofHours(12))).code()).isEqualTo("expired");
        assertThat(read.revokedAt()).isEmpty();
    }

    @Test
    void revokingAllOfASubjectTouchesOnlyHerValidCredentialsAndKeepsEarlierRevocations() {
        SubjectId ana = storedPerson("cred");
        SubjectId eva = storedPerson("cred");
        Credential first = stored(ana, Optional.empty(), NOW);
        Credential second = stored(ana, Optional.of(cluster("prod")), NOW.plusSeconds(1));
        Credential earlier = stored(ana, Optional.empty(), NOW.plusSeconds(2));
        store.revoke(earlier.id(), NOW.plusSeconds(3), Optional.of("ana"), Optional.of("la suya"));
        Credential evas = stored(eva, Optional.empty(), NOW);

        assertThat(store.revokeAllOf(ana, NOW.plusSeconds(10), "cuenta deshabilitada")).isEqualTo(2);
        assertThat(store.revokeAllOf(ana, NOW.plusSeconds(20), "otra vez")).as("none valid left").isZero();

        for (Credential credential : List.of(first, second)) {
            Credential revoked = store.findById(credential.id()).orElseThrow();
            assertThat(revoked.revokedAt()).contains(NOW.plusSeconds(10));
            assertThat(revoked.revokeReason()).contains("cuenta deshabilitada");
            assertThat(revoked.revokedBy()).isEmpty();
        }
        Credential kept = store.findById(earlier.id()).orElseThrow();
        assertThat(kept.revokedAt()).contains(NOW.plusSeconds(3));
        assertThat(kept.revokedBy()).contains("ana");
        assertThat(kept.revokeReason()).contains("la suya");
        assertThat(store.findById(evas.id()).orElseThrow().revoked()).isFalse();
    }

    @Test
    void revokingAllRestrictedToAClusterLeavesUnrestrictedAndOtherClustersCredentials() {
        SubjectId ana = storedPerson("cred");
        SubjectId eva = storedPerson("cred");
        ClusterId prod = cluster("prod");
        ClusterId staging = cluster("staging");
        Credential anasProd = stored(ana, Optional.of(prod), NOW);
        Credential evasProd = stored(eva, Optional.of(prod), NOW);
        Credential anywhere = stored(ana, Optional.empty(), NOW);
        Credential onStaging = stored(ana, Optional.of(staging), NOW);

        assertThat(store.revokeAllRestrictedTo(prod, NOW.plusSeconds(4), "cluster borrado")).isEqualTo(2);
        assertThat(store.revokeAllRestrictedTo(prod, NOW.plusSeconds(8), "otra vez")).isZero();

        assertThat(store.findById(anasProd.id()).orElseThrow().revokedAt()).contains(NOW.plusSeconds(4));
        assertThat(store.findById(evasProd.id()).orElseThrow().revokeReason()).contains("cluster borrado");
        assertThat(store.findById(anywhere.id()).orElseThrow().revoked()).isFalse();
        assertThat(store.findById(onStaging.id()).orElseThrow().revoked()).isFalse();
    }
}
