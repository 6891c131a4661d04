package dev.klave.agent.approval;

import static dev.klave.agent.approval.ApprovalsFixture.botActor;
import static dev.klave.agent.approval.ApprovalsFixture.delegated;
import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.Principal;
import dev.klave.account.SubjectId;
import dev.klave.config.DatabaseUrl;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.store.Database;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingPostgres;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two replicas on one PostgreSQL, each with its own pool and listener: a decision on one wakes a
 * call waiting on the other at once (LISTEN/NOTIFY), an approved write runs once whichever replicas
 * race for it, and the limit of 20 pending per account holds when both add at the same time.
 */
class ApprovalsReplicasTest {
    /** Waits read their request again only this rarely: a wake within it is the notification's. */
    private static final Duration NEVER_RECHECKED = Duration.ofMinutes(10);

    private final TestingClock clock = new TestingClock();
    private DatabaseUrl.Postgres url;
    private ApprovalsFixture first;
    private ApprovalsFixture second;

    @BeforeEach
    void start() {
        url = TestingPostgres.freshDatabase();
        first = new ApprovalsFixture(Database.open(url), clock, NEVER_RECHECKED);
        second = new ApprovalsFixture(Database.open(url), clock, NEVER_RECHECKED);
        first.storeCluster();
        first.approvals.start();
        second.approvals.start();
    }

    @AfterEach
    void stop() {
        for (ApprovalsFixture replica : List.of(first, second)) {
            replica.approvals.close();
            replica.database.close();
        }
        TestingPostgres.drop(url);
    }

    @Test
    void aDecisionOnOneReplicaWakesTheCallWaitingOnTheOtherAtOnce() throws Exception {
        Principal ana = first.person("ana", false);
        WriteRequest request = first.hold(delegated(ana), "hash");
        CompletableFuture<WriteRequest> waiting = new CompletableFuture<>();
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                waiting.complete(first.approvals.await(request.id(), Duration.ofMinutes(5)));
            } catch (Throwable e) {
                waiting.completeExceptionally(e);
            }
        });
        Eventually.until("the call waits on the first replica", Duration.ofSeconds(10),
                () -> waiter.getState() == Thread.State.TIMED_WAITING);

        second.approvals.approve(request.id(), ana);

        WriteRequest woken = waiting.get(10, TimeUnit.SECONDS);
        assertThat(woken.status()).isEqualTo(WriteStatus.APPROVED);
        assertThat(woken.decidedBy()).contains("ana");
    }

    @Test
    void anApprovedWriteRunsOnceWhenBothReplicasRaceForIt() throws Exception {
        Principal root = first.person("root", true);
        SubjectId deployer = first.bot("deployer");
        WriteRequest request = second.hold(botActor(deployer), "hash");
        first.approvals.approve(request.id(), root);

        try (var executor = Executors.newFixedThreadPool(8)) {
            List<Future<Boolean>> claims = IntStream.range(0, 8)
                    .mapToObj(i -> executor.submit(() -> (i % 2 == 0 ? first : second).approvals.claim(request.id())))
                    .toList();
            long won = 0;
            for (Future<Boolean> claim : claims) {
                won += claim.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(won).isEqualTo(1);
        }
    }

    @Test
    void twentyPendingPerAccountHoldsWhenBothReplicasAddAtOnce() throws Exception {
        Principal ana = first.person("ana", false);
        int tries = Approvals.MAX_PENDING + 10;

        int held = 0;
        int refused = 0;
        try (var executor = Executors.newFixedThreadPool(10)) {
            List<Future<WriteRequest>> attempts = IntStream.range(0, tries)
                    .mapToObj(i -> executor.submit(() -> (i % 2 == 0 ? first : second).hold(delegated(ana),
                            "hash-" + i)))
                    .toList();
            for (Future<WriteRequest> attempt : attempts) {
                try {
                    attempt.get(60, TimeUnit.SECONDS);
                    held++;
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(Refusal.class);
                    assertThat(((Refusal) e.getCause()).kind()).isEqualTo(Message.AGENT_TOO_MANY_PENDING);
                    refused++;
                }
            }
        }

        assertThat(held).isEqualTo(Approvals.MAX_PENDING);
        assertThat(refused).isEqualTo(tries - Approvals.MAX_PENDING);
    }
}
