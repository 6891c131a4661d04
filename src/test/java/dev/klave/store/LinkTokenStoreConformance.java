package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.LinkPurpose;
import dev.klave.account.LinkToken;
import dev.klave.account.LinkTokenStore;
import dev.klave.account.SubjectId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** What every {@link LinkTokenStore} must do, whatever the database behind it. */
abstract class LinkTokenStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private LinkTokenStore store;

    @Override
    protected void setUp(Database database) {
        store = new JdbiLinkTokenStore(database);
    }

    private SubjectId newPerson() {
        return storedPerson("link");
    }

    private LinkToken pending(SubjectId subject, LinkPurpose purpose) {
        LinkToken token = LinkToken.pending(UUID.randomUUID().toString().replace("-", ""), subject, purpose, NOW);
        store.create(token);
        return token;
    }

    @Test
    void pendingUntilIsTheLastPendingLinksExpiryOfEachAskedSubjectOnly() {
        SubjectId ana = newPerson();
        SubjectId bea = newPerson();
        SubjectId spent = newPerson();
        pending(ana, LinkPurpose.RESET);
        LinkToken invitation = pending(ana, LinkPurpose.INVITATION);
        pending(bea, LinkPurpose.INVITATION);
        store.consume(pending(spent, LinkPurpose.INVITATION).id(), NOW);

        assertThat(store.pendingUntil(java.util.List.of(ana, spent), NOW))
                .isEqualTo(java.util.Map.of(ana, invitation.expiresAt()));
        assertThat(store.pendingUntil(java.util.List.of(ana), invitation.expiresAt())).isEmpty();
    }

    @Test
    void storedTokenReadsBackByItsHash() {
        LinkToken token = pending(newPerson(), LinkPurpose.INVITATION);

        assertThat(store.findByHash(token.tokenHash())).contains(token);
        assertThat(token.expiresAt()).isEqualTo(NOW.plus(Duration.ofHours(72)));
    }

    @Test
    void unknownHashIsAbsent() {
        assertThat(store.findByHash("0".repeat(64))).isEmpty();
    }

    @Test
    void tokenIsConsumedOnlyOnce() {
        LinkToken token = pending(newPerson(), LinkPurpose.RESET);

        assertThat(store.consume(token.id(), NOW.plusSeconds(1))).isTrue();
        assertThat(store.consume(token.id(), NOW.plusSeconds(2))).isFalse();
        assertThat(store.findByHash(token.tokenHash()).orElseThrow().consumedAt()).contains(NOW.plusSeconds(1));
    }

    @Test
    void expiredTokenCannotBeConsumed() {
        LinkToken token = pending(newPerson(), LinkPurpose.RESET);

        assertThat(store.consume(token.id(), token.expiresAt())).isFalse();
        assertThat(store.findByHash(token.tokenHash()).orElseThrow().usableAt(token.expiresAt())).isFalse();
    }

    @Test
    void revokingPendingLinksLeavesConsumedOnesAndOtherPeopleAlone() {
        SubjectId person = newPerson();
        SubjectId other = newPerson();
        LinkToken used = pending(person, LinkPurpose.INVITATION);
        store.consume(used.id(), NOW.plusSeconds(1));
        LinkToken first = pending(person, LinkPurpose.RESET);
        LinkToken second = pending(person, LinkPurpose.RESET);
        LinkToken othersLink = pending(other, LinkPurpose.RESET);

        int revoked = store.revokePending(person, NOW.plusSeconds(5));

        assertThat(revoked).isEqualTo(2);
        assertThat(store.consume(first.id(), NOW.plusSeconds(6))).isFalse();
        assertThat(store.consume(second.id(), NOW.plusSeconds(6))).isFalse();
        assertThat(store.findByHash(used.tokenHash()).orElseThrow().revokedAt()).isEmpty();
        assertThat(store.findByHash(othersLink.tokenHash()).orElseThrow().usableAt(NOW.plusSeconds(6))).isTrue();
    }

    @Test
    void concurrentUsesOfOneLinkHaveExactlyOneWinner() throws Exception {
        LinkToken token = pending(newPerson(), LinkPurpose.INVITATION);
        int racers = 6;

        int winners = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(racers)) {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                results.add(pool.submit((Callable<Boolean>) () -> store.consume(token.id(), NOW.plusSeconds(1))));
            }
            for (Future<Boolean> result : results) {
                winners += result.get() ? 1 : 0;
            }
        }

        assertThat(winners).isEqualTo(1);
    }

    @Test
    void aPendingLinkCountsUntilItIsSpentRevokedOrExpired() {
        SubjectId ana = newPerson();
        assertThat(store.hasPending(ana, NOW)).isFalse();
        LinkToken link = pending(ana, LinkPurpose.INVITATION);

        assertThat(store.hasPending(ana, NOW)).isTrue();
        assertThat(store.hasPending(ana, link.expiresAt())).as("expired").isFalse();
        store.consume(link.id(), NOW);
        assertThat(store.hasPending(ana, NOW)).as("spent").isFalse();
    }
}
