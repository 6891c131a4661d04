package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.oauth.session.AgentSession;
import dev.klave.oauth.session.AgentSessionStore;
import dev.klave.access.Permission;
import dev.klave.storage.AlreadyExistsException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link AgentSessionStore} must do, whatever the database behind it. */
abstract class AgentSessionStoreConformance extends StoreConformance {
    static final Instant NOW = Instant.parse("2026-11-27T10:00:00Z");

    private AgentSessionStore store;

    @Override
    protected void setUp(Database database) {
        store = new JdbiAgentSessionStore(database);
    }

    static AgentSession session(SubjectId person, String via, Instant at) {
        return new AgentSession("s_" + UUID.randomUUID().toString().replace("-", ""), person,
                "https://client.example/meta.json", List.of(new Permission(new ClusterId("prod-1"), Tier.EDIT,
                        new Scope("team-a")), new Permission(new ClusterId("prod-1"), Tier.VIEW, Scope.ALL)),
                true, via, at, at.plus(Duration.ofDays(30)), Optional.empty(), Optional.empty(), Optional.empty());
    }

    @Test
    void aStoredSessionReadsBackWholeWithItsPermissions() {
        AgentSession session = session(storedPerson("ana"), "password", NOW);
        store.create(session);

        assertThat(store.findById(session.id())).contains(session);
        assertThat(store.findById("s_unknown1")).isEmpty();
        assertThatThrownBy(() -> store.create(session)).isInstanceOf(AlreadyExistsException.class);
    }

    @Test
    void endingASessionKeepsTheFirstReason() {
        AgentSession session = session(storedPerson("ana"), "password", NOW);
        store.create(session);

        assertThat(store.end(session.id(), NOW.plusSeconds(5), "revoked")).isTrue();
        assertThat(store.end(session.id(), NOW.plusSeconds(9), "again")).isFalse();
        AgentSession ended = store.findById(session.id()).orElseThrow();
        assertThat(ended.endedAt()).contains(NOW.plusSeconds(5));
        assertThat(ended.endReason()).contains("revoked");
        assertThat(ended.openAt(NOW.plusSeconds(6))).isFalse();
    }

    @Test
    void aPersonsSessionsEndTogetherOrByTheIdentityTheyConsentedWith() {
        SubjectId ana = storedPerson("ana");
        SubjectId bea = storedPerson("bea");
        AgentSession byPassword = session(ana, "password", NOW);
        AgentSession byForge = session(ana, "forge", NOW.plusSeconds(1));
        AgentSession beas = session(bea, "forge", NOW);
        List.of(byPassword, byForge, beas).forEach(store::create);

        assertThat(store.endAllConsentedVia(ana, "forge", NOW.plusSeconds(10), "forge unlinked")).isEqualTo(1);
        assertThat(store.findById(byPassword.id()).orElseThrow().endedAt()).isEmpty();
        assertThat(store.endAllOf(ana, NOW.plusSeconds(20), "disabled")).isEqualTo(1);
        assertThat(store.findById(byPassword.id()).orElseThrow().endReason()).contains("disabled");
        assertThat(store.findById(byForge.id()).orElseThrow().endReason()).contains("forge unlinked");
        assertThat(store.findById(beas.id()).orElseThrow().endedAt()).isEmpty();
    }

    @Test
    void listingIsNewestFirstPerPersonOrForEveryone() {
        SubjectId ana = storedPerson("ana");
        AgentSession older = session(ana, "password", NOW);
        AgentSession newer = session(ana, "password", NOW.plusSeconds(60));
        AgentSession other = session(storedPerson("bea"), "password", NOW.plusSeconds(30));
        List.of(older, newer, other).forEach(store::create);
        store.touch(older.id(), NOW.plusSeconds(90));

        assertThat(store.list(Optional.of(ana))).extracting(AgentSession::id).containsExactly(newer.id(), older.id());
        assertThat(store.list(Optional.empty())).extracting(AgentSession::id)
                .containsSubsequence(newer.id(), other.id(), older.id());
        assertThat(store.findById(older.id()).orElseThrow().lastUsedAt()).contains(NOW.plusSeconds(90));
    }
}
