package dev.klave.agent.approval;

import static dev.klave.agent.approval.ApprovalsFixture.anyHash;
import static dev.klave.agent.approval.ApprovalsFixture.botActor;
import static dev.klave.agent.approval.ApprovalsFixture.delegated;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.account.Principal;
import dev.klave.account.SubjectId;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Held writes on one replica (SQLite): the same call repeated, the limit of 20 per account (spec 3
 * §8), expiry, who decides, a waiting call woken by the decision, and running an approved write once.
 */
class ApprovalsTest {
    /** Waits read their request again only this rarely: anything sooner is a signal's doing. */
    private static final Duration NEVER_RECHECKED = Duration.ofMinutes(10);

    private final TestingClock clock = new TestingClock();
    private TestingDatabase database;
    private ApprovalsFixture fixture;
    private Approvals approvals;
    private Principal root;
    private Principal ana;
    private Principal eva;
    private SubjectId deployer;

    @BeforeEach
    void start() {
        database = TestingDatabase.sqlite();
        fixture = new ApprovalsFixture(database.database(), clock, NEVER_RECHECKED);
        fixture.storeCluster();
        approvals = fixture.approvals;
        approvals.start();
        root = fixture.person("root", true);
        ana = fixture.person("ana", false);
        eva = fixture.person("eva", false);
        deployer = fixture.bot("deployer");
    }

    @AfterEach
    void stop() {
        approvals.close();
        database.close();
    }

    @Test
    void theSameFirstCallRepeatedReturnsTheSameRequest() {
        WriteRequest first = fixture.hold(delegated(ana), "hash-a");

        assertThat(fixture.hold(delegated(ana), "hash-a")).isEqualTo(first);
        assertThat(fixture.hold(delegated(ana), "hash-b").id()).as("other arguments").isNotEqualTo(first.id());
        assertThat(fixture.hold(botActor(deployer), "hash-a").id()).as("another actor").isNotEqualTo(first.id());
        assertThat(first.id()).matches("wr_[A-Za-z0-9_-]{22}");
        assertThat(first.status()).isEqualTo(WriteStatus.PENDING);
        assertThat(first.expiresAt()).isEqualTo(clock.instant().plus(Approvals.LIFETIME));
        assertThat(first.decider()).contains(ana.subjectId());
    }

    @Test
    void theTwentyFirstPendingRequestOfAnAccountIsRefused() {
        List<WriteRequest> held = IntStream.range(0, Approvals.MAX_PENDING)
                .mapToObj(i -> fixture.hold(delegated(ana), "hash-" + i)).toList();

        assertThatThrownBy(() -> fixture.hold(delegated(ana), anyHash())).isInstanceOfSatisfying(Refusal.class,
                refusal -> {
                    assertThat(refusal.kind()).isEqualTo(Message.AGENT_TOO_MANY_PENDING);
                    assertThat(refusal.kind().code()).isEqualTo("agent.too_many_pending");
                    assertThat(refusal).hasMessage("la cuenta ya tiene 20 solicitudes pendientes");
                });
        assertThat(fixture.hold(delegated(ana), "hash-7")).as("a repeat is no new request").isEqualTo(held.get(7));
        assertThat(fixture.hold(delegated(eva), anyHash())).as("another account").isNotNull();

        approvals.deny(held.get(0).id(), ana);
        assertThat(fixture.hold(delegated(ana), anyHash())).as("one was decided").isNotNull();
        clock.advance(Approvals.LIFETIME);
        assertThat(fixture.hold(delegated(ana), anyHash())).as("the others ran out").isNotNull();
    }

    @Test
    void aRequestRunsOutAfterItsLifetimeAndCannotBeDecidedThen() {
        WriteRequest request = fixture.hold(delegated(ana), anyHash());
        clock.advance(Approvals.LIFETIME.minusMillis(1));
        assertThat(approvals.find(request.id()).orElseThrow().statusAt(clock.instant())).isEqualTo(WriteStatus.PENDING);

        clock.advance(Duration.ofMillis(1));

        assertThat(approvals.find(request.id()).orElseThrow().statusAt(clock.instant())).isEqualTo(WriteStatus.EXPIRED);
        assertThatThrownBy(() -> approvals.approve(request.id(), ana)).hasMessage("la solicitud ha caducado");
        assertThat(approvals.claim(request.id())).isFalse();
        WriteRequest again = fixture.hold(delegated(ana), request.argumentsHash());
        assertThat(again.id()).as("the same call asks again").isNotEqualTo(request.id());
    }

    @Test
    void onlyTheDeciderOrForABotAnAdministratorMayDecide() {
        WriteRequest anas = fixture.hold(delegated(ana), anyHash());
        WriteRequest bots = fixture.hold(botActor(deployer), anyHash());

        assertThat(approvals.decidable(anas.id(), eva)).isEmpty();
        assertThat(approvals.decidable(anas.id(), root)).as("a person's agent waits for that person").isEmpty();
        assertThat(approvals.decidable(bots.id(), ana)).isEmpty();
        assertThatThrownBy(() -> approvals.approve(anas.id(), root)).hasMessage("no encontrado");
        assertThat(approvals.decidableBy(root)).extracting(WriteRequest::id).containsExactly(bots.id());
        assertThat(approvals.decidableBy(ana)).extracting(WriteRequest::id).containsExactly(anas.id());

        assertThat(approvals.approve(anas.id(), ana).status()).isEqualTo(WriteStatus.APPROVED);
        assertThat(approvals.deny(bots.id(), root).decidedBy()).contains("root");
        assertThatThrownBy(() -> approvals.approve(bots.id(), root)).hasMessage("la solicitud ya no está pendiente");
    }

    @Test
    void approvingAWriteWhoseAskerCanNoLongerRunItSaysSoAndApprovesNothing() {
        Actor bot = botActor(deployer);
        WriteRequest request = fixture.hold(bot, anyHash());
        fixture.ended.add(bot);

        assertThatThrownBy(() -> approvals.approve(request.id(), root)).hasMessage("la escritura ya no se puede "
                + "ejecutar: la sesión del agente terminó, su credencial se revocó o su cuenta está deshabilitada");
        assertThat(approvals.find(request.id()).orElseThrow().status()).isEqualTo(WriteStatus.PENDING);
        assertThat(approvals.deny(request.id(), root).status()).as("it can still be denied").isEqualTo(WriteStatus.DENIED);
    }

    @Test
    void aWaitingCallWakesAtOnceWhenAPersonDecides() throws Exception {
        WriteRequest request = fixture.hold(delegated(ana), anyHash());
        CompletableFuture<WriteRequest> waiting = waitFor(request.id(), Duration.ofMinutes(5));

        approvals.approve(request.id(), ana);

        WriteRequest decided = waiting.get(10, TimeUnit.SECONDS);
        assertThat(decided.status()).isEqualTo(WriteStatus.APPROVED);
        assertThat(decided.decidedBy()).contains("ana");
    }

    @Test
    void aWaitEndsAfterItsLongestWithTheRequestStillPending() throws Exception {
        WriteRequest request = fixture.hold(delegated(ana), anyHash());

        assertThat(approvals.await(request.id(), Duration.ofMillis(50)).status()).isEqualTo(WriteStatus.PENDING);
        assertThat(approvals.await(request.id(), Duration.ZERO).status()).isEqualTo(WriteStatus.PENDING);
    }

    @Test
    void closingReleasesEveryWaitAndAnInterruptEndsOne() throws Exception {
        WriteRequest request = fixture.hold(delegated(ana), anyHash());
        CompletableFuture<WriteRequest> first = waitFor(request.id(), Duration.ofMinutes(5));
        CompletableFuture<Throwable> interrupted = new CompletableFuture<>();
        Thread leaving = Thread.ofVirtual().start(() -> {
            try {
                approvals.await(request.id(), Duration.ofMinutes(5));
                interrupted.complete(null);
            } catch (Throwable e) {
                interrupted.complete(e);
            }
        });
        leaving.interrupt();
        assertThat(interrupted.get(10, TimeUnit.SECONDS)).as("the client left").isInstanceOf(InterruptedException.class);

        approvals.close();

        assertThat(first.get(10, TimeUnit.SECONDS).status()).isEqualTo(WriteStatus.PENDING);
        assertThat(approvals.await(request.id(), Duration.ofMinutes(5)).status()).as("after close: at once")
                .isEqualTo(WriteStatus.PENDING);
    }

    @Test
    void anApprovedWriteIsClaimedExactlyOnceByConcurrentCalls() throws Exception {
        WriteRequest request = fixture.hold(botActor(deployer), anyHash());
        assertThat(approvals.claim(request.id())).as("pending").isFalse();
        approvals.approve(request.id(), root);

        try (var executor = Executors.newFixedThreadPool(8)) {
            List<Future<Boolean>> claims = IntStream.range(0, 8)
                    .mapToObj(i -> executor.submit(() -> approvals.claim(request.id()))).toList();
            long won = 0;
            for (Future<Boolean> claim : claims) {
                won += claim.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(won).isEqualTo(1);
        }
        WriteRequest executed = approvals.find(request.id()).orElseThrow();
        assertThat(executed.status()).isEqualTo(WriteStatus.EXECUTED);
        assertThat(executed.executedAt()).contains(clock.instant());
    }

    private CompletableFuture<WriteRequest> waitFor(String id, Duration max) {
        CompletableFuture<WriteRequest> result = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                result.complete(approvals.await(id, max));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }
}
