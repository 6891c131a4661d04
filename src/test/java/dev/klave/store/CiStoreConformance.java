package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.account.Login;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectKind;
import dev.klave.ci.ExchangedTokenStore;
import dev.klave.ci.TrustRule;
import dev.klave.ci.TrustRuleStore;
import dev.klave.storage.AlreadyExistsException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** What the CI exchange's stores must do, whatever the database behind them. */
abstract class CiStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private TrustRuleStore rules;
    private ExchangedTokenStore tokens;

    @Override
    protected void setUp(Database database) {
        rules = new JdbiTrustRuleStore(database);
        tokens = new JdbiExchangedTokenStore(database);
    }

    private SubjectId storedBot() {
        Subject bot = new Subject(SubjectId.random(), new Login("bot-" + UUID.randomUUID().toString().substring(0, 8)),
                SubjectKind.BOT, "CI", Optional.empty(), false, false, Optional.empty(), Optional.empty(),
                NOW, false);
        new JdbiSubjectStore(database()).create(bot);
        return bot.id();
    }

    @Test
    void trustRuleIsStoredListedInCreationOrderAndDeleted() {
        SubjectId bot = storedBot();
        TrustRule older = new TrustRule(UUID.randomUUID().toString(), "deploy", bot, 9_000_000_001L,
                9_000_000_002L, "refs/heads/main", "", NOW, Optional.of("admin-id"));
        TrustRule newer = new TrustRule(UUID.randomUUID().toString(), "release", bot, 1L, 2L, "", "production",
                NOW.plusSeconds(1), Optional.empty());
        rules.create(newer);
        rules.create(older);

        List<TrustRule> listed = rules.list().stream().filter(rule -> rule.botSubjectId().equals(bot)).toList();
        assertThat(listed).containsExactly(older, newer);
        assertThat(rules.findById(older.id())).contains(older);

        assertThat(rules.delete(older.id())).isTrue();
        assertThat(rules.delete(older.id())).isFalse();
        assertThat(rules.findById(older.id())).isEmpty();
    }

    @Test
    void theSameRuleUnderAnotherNameIsFoundAndCannotBeStoredTwice() {
        SubjectId bot = storedBot();
        TrustRule original = new TrustRule(UUID.randomUUID().toString(), "deploy", bot, 11L, 12L, "refs/heads/main",
                "production", NOW, Optional.empty());
        rules.create(original);
        TrustRule same = new TrustRule(UUID.randomUUID().toString(), "another name", bot, 11L, 12L,
                "refs/heads/main", "production", NOW.plusSeconds(1), Optional.empty());

        assertThat(rules.findSame(same)).contains(original);
        assertThatThrownBy(() -> rules.create(same)).isInstanceOf(AlreadyExistsException.class);
        assertThat(rules.findById(same.id())).isEmpty();

        for (TrustRule differing : List.of(
                new TrustRule(UUID.randomUUID().toString(), "d", storedBot(), 11L, 12L, "refs/heads/main",
                        "production", NOW, Optional.empty()),
                new TrustRule(UUID.randomUUID().toString(), "d", bot, 13L, 12L, "refs/heads/main", "production",
                        NOW, Optional.empty()),
                new TrustRule(UUID.randomUUID().toString(), "d", bot, 11L, 13L, "refs/heads/main", "production",
                        NOW, Optional.empty()),
                new TrustRule(UUID.randomUUID().toString(), "d", bot, 11L, 12L, "refs/heads/Main", "production",
                        NOW, Optional.empty()),
                new TrustRule(UUID.randomUUID().toString(), "d", bot, 11L, 12L, "refs/heads/main", "",
                        NOW, Optional.empty()))) {
            assertThat(rules.findSame(differing)).as(differing.toString()).isEmpty();
            rules.create(differing);
        }
    }

    @Test
    void tokenIsSpentOnceAndForgottenAfterItsExpiry() {
        String jti = UUID.randomUUID().toString();
        assertThat(tokens.exchanged(jti)).isFalse();

        assertThat(tokens.spend(jti, NOW, NOW.plusSeconds(360))).isTrue();
        assertThat(tokens.exchanged(jti)).isTrue();
        assertThat(tokens.spend(jti, NOW.plusSeconds(10), NOW.plusSeconds(360))).isFalse();

        tokens.spend(UUID.randomUUID().toString(), NOW.plusSeconds(361), NOW.plusSeconds(700));
        assertThat(tokens.exchanged(jti)).isFalse();
    }

    @Test
    void concurrentSpendsOfOneTokenHaveOneWinner() throws Exception {
        String jti = UUID.randomUUID().toString();
        List<Callable<Boolean>> attempts = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            attempts.add(() -> tokens.spend(jti, NOW, NOW.plusSeconds(360)));
        }
        int winners = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (Future<Boolean> attempt : pool.invokeAll(attempts)) {
                winners += attempt.get() ? 1 : 0;
            }
        }
        assertThat(winners).isEqualTo(1);
    }
}
