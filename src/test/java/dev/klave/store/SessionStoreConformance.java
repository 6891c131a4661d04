package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.SessionStore;
import dev.klave.account.SubjectId;
import dev.klave.account.WebSession;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link SessionStore} must do, whatever the database behind it. */
abstract class SessionStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private SessionStore store;

    @Override
    protected void setUp(Database database) {
        store = new JdbiSessionStore(database);
    }

    private SubjectId person() {
        return storedPerson("session");
    }

    private WebSession open(SubjectId subject) {
        WebSession session = new WebSession(UUID.randomUUID().toString(), subject, NOW, NOW.plus(Duration.ofHours(12)),
                Optional.empty());
        store.create(session);
        return session;
    }

    @Test
    void lastOpenedIsTheNewestSessionOfEachAskedSubjectOnly() {
        SubjectId ana = person();
        SubjectId bea = person();
        SubjectId never = person();
        open(ana);
        WebSession later = new WebSession(UUID.randomUUID().toString(), ana, NOW.plusSeconds(90),
                NOW.plus(Duration.ofHours(13)), Optional.empty());
        store.create(later);
        open(bea);

        assertThat(store.lastOpened(java.util.List.of(ana, never)))
                .isEqualTo(java.util.Map.of(ana, NOW.plusSeconds(90)));
        assertThat(store.lastOpened(java.util.List.of())).isEmpty();
    }

    @Test
    void storedSessionReadsBackByTheHashOfItsId() {
        WebSession session = open(person());

        assertThat(store.findByHash(session.idHash())).contains(session);
        assertThat(store.findByHash("unknown")).isEmpty();
    }

    @Test
    void closingAllSessionsOfAPersonIsOneCallAndLeavesOthersOpen() {
        SubjectId ana = person();
        SubjectId eva = person();
        WebSession first = open(ana);
        WebSession second = open(ana);
        WebSession evas = open(eva);

        assertThat(store.closeAll(ana, NOW.plusSeconds(5))).isEqualTo(2);

        assertThat(store.findByHash(first.idHash()).orElseThrow().closedAt()).contains(NOW.plusSeconds(5));
        assertThat(store.findByHash(second.idHash()).orElseThrow().openAt(NOW.plusSeconds(6))).isFalse();
        assertThat(store.findByHash(evas.idHash()).orElseThrow().openAt(NOW.plusSeconds(6))).isTrue();
        assertThat(store.closeAll(ana, NOW.plusSeconds(7))).isZero();
    }

    @Test
    void closingTheOtherSessionsKeepsTheOneNamed() {
        SubjectId ana = person();
        WebSession kept = open(ana);
        WebSession other = open(ana);

        assertThat(store.closeAllExcept(ana, kept.idHash(), NOW.plusSeconds(1))).isEqualTo(1);

        assertThat(store.findByHash(kept.idHash()).orElseThrow().openAt(NOW.plusSeconds(2))).isTrue();
        assertThat(store.findByHash(other.idHash()).orElseThrow().openAt(NOW.plusSeconds(2))).isFalse();
    }

    @Test
    void sessionIsOpenOnlyUntilItExpires() {
        WebSession session = open(person());

        assertThat(session.openAt(NOW.plus(Duration.ofHours(12)).minusMillis(1))).isTrue();
        assertThat(session.openAt(NOW.plus(Duration.ofHours(12)))).isFalse();
    }

    @Test
    void aPersonHasEverSignedInOnceASessionWasOpenedEvenAfterItClosed() {
        SubjectId ana = person();
        SubjectId bea = person();
        open(ana);
        store.closeAll(ana, NOW.plusSeconds(60));

        assertThat(store.everOpened(ana)).isTrue();
        assertThat(store.everOpened(bea)).isFalse();
    }
}
