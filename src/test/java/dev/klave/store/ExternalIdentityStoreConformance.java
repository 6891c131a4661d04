package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.account.IdentityProvider;
import dev.klave.account.SubjectId;
import dev.klave.storage.AlreadyExistsException;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What every {@link ExternalIdentityStore} must do, whatever the database behind it. */
abstract class ExternalIdentityStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-27T10:00:00Z");
    private static final AtomicLong FORGE_IDS = new AtomicLong(7_000_000);

    private ExternalIdentityStore store;

    @Override
    protected void setUp(Database database) {
        store = new JdbiExternalIdentityStore(database);
    }

    private static ExternalIdentity forge(SubjectId subject, long forgeId, String login) {
        return new ExternalIdentity(subject, ExternalIdentity.Key.forge(forgeId), Optional.of(login), Optional.empty(),
                NOW);
    }

    @Test
    void theIdentitiesOfAPageOfAccountsComeInOneCall() {
        SubjectId ana = storedPerson("page");
        SubjectId bea = storedPerson("page");
        SubjectId other = storedPerson("page");
        long first = FORGE_IDS.incrementAndGet();
        long second = FORGE_IDS.incrementAndGet();
        ExternalIdentity oidc = new ExternalIdentity(ana, ExternalIdentity.Key.oidc("https://idp.example/", "sub",
                "page-" + first), Optional.empty(), Optional.empty(), NOW);
        store.link(forge(ana, first, "ana-gh"));
        store.link(oidc);
        store.link(forge(other, second, "other-gh"));

        assertThat(store.listFor(java.util.List.of(ana, bea))).containsExactlyInAnyOrder(forge(ana, first, "ana-gh"),
                oidc);
        assertThat(store.listFor(java.util.List.<SubjectId>of())).isEmpty();
    }

    @Test
    void aLinkedForgeAccountIsFoundByItsIdAndByItsAccount() {
        SubjectId ana = storedPerson("ana");
        long id = FORGE_IDS.incrementAndGet();
        store.link(forge(ana, id, "ana-gh"));

        assertThat(store.find(ExternalIdentity.Key.forge(id))).contains(forge(ana, id, "ana-gh"));
        assertThat(store.findFor(ana, IdentityProvider.FORGE)).contains(forge(ana, id, "ana-gh"));
        assertThat(store.findFor(ana, IdentityProvider.OIDC)).isEmpty();
        assertThat(store.find(ExternalIdentity.Key.forge(FORGE_IDS.incrementAndGet()))).isEmpty();
    }

    @Test
    void oneForgeAccountLinksToAtMostOneAccount() {
        SubjectId ana = storedPerson("ana");
        SubjectId bea = storedPerson("bea");
        long id = FORGE_IDS.incrementAndGet();
        store.link(forge(ana, id, "shared"));

        assertThatThrownBy(() -> store.link(forge(bea, id, "shared"))).isInstanceOf(AlreadyExistsException.class);
        assertThat(store.find(ExternalIdentity.Key.forge(id)).orElseThrow().subjectId()).isEqualTo(ana);
        assertThat(store.findFor(bea, IdentityProvider.FORGE)).isEmpty();
    }

    @Test
    void linkingAgainSwitchesTheAccountToTheNewForgeAccount() {
        SubjectId ana = storedPerson("ana");
        long first = FORGE_IDS.incrementAndGet();
        long second = FORGE_IDS.incrementAndGet();
        store.link(forge(ana, first, "old"));

        store.link(forge(ana, second, "new"));

        assertThat(store.findFor(ana, IdentityProvider.FORGE).map(identity -> identity.key().forgeId()))
                .contains(second);
        assertThat(store.find(ExternalIdentity.Key.forge(first))).isEmpty();
    }

    @Test
    void anAccountKeepsOneIdentityPerProvider() {
        SubjectId ana = storedPerson("ana");
        long id = FORGE_IDS.incrementAndGet();
        ExternalIdentity oidc = new ExternalIdentity(ana, ExternalIdentity.Key.oidc("https://idp.example/", "sub",
                "ana-" + id), Optional.of("Ana"), Optional.of("ana@example.com"), NOW);
        store.link(forge(ana, id, "ana-gh"));
        store.link(oidc);

        assertThat(store.listFor(ana)).containsExactly(forge(ana, id, "ana-gh"), oidc);
        assertThat(store.find(oidc.key())).contains(oidc);
    }

    @Test
    void unlinkRemovesOnlyThatProvidersIdentity() {
        SubjectId ana = storedPerson("ana");
        long id = FORGE_IDS.incrementAndGet();
        ExternalIdentity oidc = new ExternalIdentity(ana, ExternalIdentity.Key.oidc("https://idp.example/", "sub",
                "unlink-" + id), Optional.empty(), Optional.empty(), NOW);
        store.link(forge(ana, id, "ana-gh"));
        store.link(oidc);

        assertThat(store.unlink(ana, IdentityProvider.FORGE)).isTrue();
        assertThat(store.unlink(ana, IdentityProvider.FORGE)).isFalse();
        assertThat(store.listFor(ana)).containsExactly(oidc);
    }

    @Test
    void refreshRenamesOnlyWhileTheSameAccountHoldsTheIdentity() {
        SubjectId ana = storedPerson("ana");
        SubjectId bea = storedPerson("bea");
        long id = FORGE_IDS.incrementAndGet();
        store.link(forge(ana, id, "before"));

        assertThat(store.refresh(bea, ExternalIdentity.Key.forge(id), Optional.of("hijack"), Optional.empty()))
                .isFalse();
        assertThat(store.refresh(ana, ExternalIdentity.Key.forge(id), Optional.of("after"), Optional.empty()))
                .isTrue();
        assertThat(store.find(ExternalIdentity.Key.forge(id)).orElseThrow().display()).contains("after");
    }

    @Test
    void listByProviderHoldsEveryLinkedAccount() {
        SubjectId ana = storedPerson("ana");
        SubjectId bea = storedPerson("bea");
        long first = FORGE_IDS.incrementAndGet();
        long second = FORGE_IDS.incrementAndGet();
        store.link(forge(ana, first, "a"));
        store.link(forge(bea, second, "b"));

        assertThat(store.list(IdentityProvider.FORGE)).contains(forge(ana, first, "a"), forge(bea, second, "b"));
        assertThat(store.list(IdentityProvider.OIDC)).noneMatch(identity -> identity.subjectId().equals(ana)
                && identity.key().provider() == IdentityProvider.FORGE);
    }
}
