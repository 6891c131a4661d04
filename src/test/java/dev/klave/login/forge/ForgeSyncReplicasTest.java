package dev.klave.login.forge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.IssuedLink;
import dev.klave.account.Login;
import dev.klave.account.NewPerson;
import dev.klave.config.DatabaseUrl;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingForge;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPostgres;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Two replicas on one PostgreSQL take turns at the hourly sync (spec 1 §5 "Automatic
 * offboarding"): never two passes at once, one pass an hour between them, and
 * both show the same {@code last_sync}.
 */
class ForgeSyncReplicasTest {
    private final TestingClock clock = new TestingClock(Instant.parse("2026-11-27T09:00:00Z"));

    @Test
    void twoReplicasTakeTurnsAndShowTheSameLastSync() throws Exception {
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        try (TestingForge forge = TestingForge.start(clock);
                TestingKlave first = TestingKlave.startOnWithForge(database, clock, forge, settings -> settings);
                TestingKlave second = TestingKlave.startOnWithForge(database, clock, forge, settings -> settings)) {
            IssuedLink admin = first.accounts().createPerson(new NewPerson(new Login("root"),
                    Optional.empty(), Optional.empty(), true, false), Optional.empty());
            long forgeId = forge.createUser("root-gh");
            forge.addMember(forgeId);
            first.identities().link(new ExternalIdentity(admin.subject().id(),
                    ExternalIdentity.Key.forge(forgeId), Optional.of("root-gh"), Optional.empty(), clock.instant()));

            List<ForgeSync.Run> runs = together(first.hooks()::syncForgeMembers,
                    second.hooks()::syncForgeMembers);
            assertThat(runs).containsOnlyOnce(ForgeSync.Run.RAN);
            assertThat(runs).containsAnyOf(ForgeSync.Run.BUSY, ForgeSync.Run.RECENT);

            clock.advance(Duration.ofMinutes(30));
            assertThat(second.hooks().syncForgeMembers()).isEqualTo(ForgeSync.Run.RECENT);

            clock.advance(Duration.ofMinutes(31));
            assertThat(second.hooks().syncForgeMembers()).isEqualTo(ForgeSync.Run.RAN);
            assertThat(first.hooks().syncForgeMembers()).isEqualTo(ForgeSync.Run.RECENT);

            String cookie = "service_session=" + first.hooks().openSession(admin.subject())
                    .cookieValue();
            HttpResponse<String> fromFirst = first.http().get("/api/forge/status", "Cookie", cookie);
            HttpResponse<String> fromSecond = second.http().get("/api/forge/status", "Cookie", cookie);
            assertThat(fromFirst.statusCode()).isEqualTo(200);
            assertThat(fromFirst.body()).isEqualTo(fromSecond.body())
                    .contains("\"configured\":true").contains("\"org\":\"acme\"").contains("\"webhook\":true")
                    .contains("\"require_org_2fa\":true").contains("\"members_seen\":1")
                    .contains("\"two_factor_required\":true").contains("\"error\":null");
        } finally {
            TestingPostgres.drop(database);
        }
    }

    private static List<ForgeSync.Run> together(Callable<ForgeSync.Run> one, Callable<ForgeSync.Run> other)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<ForgeSync.Run>> futures = pool.invokeAll(List.of(one, other));
            List<ForgeSync.Run> runs = new ArrayList<>();
            for (Future<ForgeSync.Run> future : futures) {
                runs.add(future.get());
            }
            return runs;
        } finally {
            pool.shutdownNow();
        }
    }
}
