package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.oauth.session.AgentSession;
import dev.klave.oauth.session.AgentToken;
import dev.klave.oauth.session.AgentTokenStore;
import dev.klave.storage.AlreadyExistsException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What every {@link AgentTokenStore} must do, whatever the database behind it. */
abstract class AgentTokenStoreConformance extends StoreConformance {
    private static final Instant NOW = AgentSessionStoreConformance.NOW;

    private AgentTokenStore store;
    private JdbiAgentSessionStore sessions;

    @Override
    protected void setUp(Database database) {
        store = new JdbiAgentTokenStore(database);
        sessions = new JdbiAgentSessionStore(database);
    }

    private String storedSession() {
        AgentSession session = AgentSessionStoreConformance.session(storedPerson("ana"), "password", NOW);
        sessions.create(session);
        return session.id();
    }

    private static String hash() {
        byte[] bytes = new byte[32];
        ThreadLocalRandom.current().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private AgentToken stored(AgentToken.Kind kind, String session, Duration life) {
        boolean code = kind == AgentToken.Kind.CODE;
        AgentToken token = new AgentToken(hash(), kind, session, NOW, NOW.plus(life), Optional.empty(),
                code ? Optional.of("http://127.0.0.1:5555/callback") : Optional.empty(),
                code ? Optional.of("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM") : Optional.empty());
        store.create(token);
        return token;
    }

    @Test
    void aStoredTokenReadsBackWhole() {
        String session = storedSession();
        AgentToken code = stored(AgentToken.Kind.CODE, session, Duration.ofMinutes(10));
        AgentToken access = stored(AgentToken.Kind.ACCESS, session, Duration.ofHours(1));

        assertThat(store.findByHash(code.hash())).contains(code);
        assertThat(store.findByHash(access.hash())).contains(access);
        assertThat(store.findByHash(hash())).isEmpty();
        assertThatThrownBy(() -> store.create(code)).isInstanceOf(AlreadyExistsException.class);
    }

    @Test
    void aCodeOrRefreshTokenIsUsedOnceAndAnAccessTokenNever() {
        String session = storedSession();
        AgentToken refresh = stored(AgentToken.Kind.REFRESH, session, Duration.ofDays(30));
        AgentToken access = stored(AgentToken.Kind.ACCESS, session, Duration.ofHours(1));

        assertThat(store.use(refresh.hash(), NOW.plusSeconds(1))).isTrue();
        assertThat(store.use(refresh.hash(), NOW.plusSeconds(2))).isFalse();
        assertThat(store.findByHash(refresh.hash()).orElseThrow().usedAt()).contains(NOW.plusSeconds(1));
        assertThat(store.use(access.hash(), NOW)).isFalse();
    }

    @Test
    void ofManyThreadsUsingOneCodeExactlyOneSucceeds() {
        AgentToken code = stored(AgentToken.Kind.CODE, storedSession(), Duration.ofMinutes(10));
        AtomicInteger won = new AtomicInteger();

        IntStream.range(0, 8).parallel().forEach(i -> {
            if (store.use(code.hash(), NOW.plusMillis(i))) {
                won.incrementAndGet();
            }
        });

        assertThat(won).hasValue(1);
    }

    @Test
    void expiredTokensAreForgotten() {
        String session = storedSession();
        AgentToken old = stored(AgentToken.Kind.ACCESS, session, Duration.ofMinutes(1));
        AgentToken fresh = stored(AgentToken.Kind.ACCESS, session, Duration.ofHours(1));

        // Other tests' tokens share the database: at least this one went.
        assertThat(store.deleteExpired(NOW.plus(Duration.ofMinutes(30)))).isPositive();
        assertThat(store.findByHash(old.hash())).isEmpty();
        assertThat(store.findByHash(fresh.hash())).isPresent();
    }
}
