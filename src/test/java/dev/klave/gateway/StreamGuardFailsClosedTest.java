package dev.klave.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.cluster.ClusterId;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.storage.DatabaseUnavailableException;
import dev.klave.testing.Eventually;
import dev.klave.testing.ManualTicker;
import dev.klave.testing.TestingAccess;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The stream guard fails closed: only the database being away may keep a stream open without a
 * check, and only for {@link OpenCalls#OUTAGE_GRACE} after its last check that passed, however long
 * the database makes each check wait; a failing check of any other kind (a defect) cuts at once.
 * Each stream's audit text says which. The test drives the guard's ticks and its clock; only the
 * bound on a check's wait is real time (DatabaseCutOffDrillTest runs it all on real replicas).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamGuardFailsClosedTest {
    private static final ClusterId PROD = new ClusterId("prod-1");

    private final TestingClock clock = new TestingClock();
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private Caller caller;

    @BeforeAll
    void start() throws Exception {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(clock, settings -> settings);
        TestingAccess.Viewer ana = TestingAccess.viewer(klave, cluster);
        caller = klave.hooks().gateway().checks().admit(Resolved.fresh(klave.hooks().bearers()
                .resolve(Bearers.token(Optional.of("Bearer " + ana.token())), BearerResolver.Edge.PROXY)), PROD);
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    /** Checks whose access generation always moved (so every tick checks in full), each answer given by the test. */
    private final class ScriptedChecks implements CallChecks {
        private final Supplier<Long> generation;
        private final Supplier<Caller> recheck;

        ScriptedChecks(Supplier<Long> generation, Supplier<Caller> recheck) {
            this.generation = generation;
            this.recheck = recheck;
        }

        @Override
        public long generation() {
            return generation.get();
        }

        @Override
        public Caller recheck(String credentialId, ClusterId cluster, long generation) {
            return recheck.get();
        }
    }

    private static DatabaseUnavailableException outage() {
        return new DatabaseUnavailableException("connection refused", null);
    }

    /** One tick, on a thread of its own: a pass that never ends fails the test instead of hanging it. */
    private static void tickWithin(ManualTicker ticker) throws Exception {
        CompletableFuture.runAsync(ticker::tick, runnable -> Thread.ofPlatform().daemon().start(runnable))
                .get(10, TimeUnit.SECONDS);
    }

    private static final String DATABASE_CUT =
            "stream cortado: Klave no puede consultar su base de datos para comprobar la credencial";

    /**
     * Issue 51 §6b: each check waited HikariCP's 5 s for a connection and the unchecked time
     * counted from the first failing check's start, so a stream was cut 18 s after its last check
     * — past spec 1 §8's 10 s for a revocation made on another replica. Here each failing check
     * takes its whole wait ({@link OpenCalls#CHECK_WAIT}) of the clock, and the ticks come a
     * second apart: the cut still comes within the grace of the last check that passed.
     */
    @Test
    void anUncheckedStreamIsCutWithinTheGraceOfItsLastPassedCheckNotOfItsFirstFailure() throws Exception {
        AtomicBoolean down = new AtomicBoolean();
        AtomicLong counter = new AtomicLong(caller.generation());
        CallChecks checks = new ScriptedChecks(() -> {
            if (down.get()) {
                clock.advance(OpenCalls.CHECK_WAIT);
                throw outage();
            }
            return counter.incrementAndGet();
        }, () -> caller);
        ManualTicker ticker = new ManualTicker();
        try (OpenCalls guard = new OpenCalls(checks, clock, ticker, Duration.ofSeconds(1))) {
            guard.start();
            CompletableFuture<Instant> cutAt = new CompletableFuture<>();
            CompletableFuture<String> cut = new CompletableFuture<>();
            guard.open("long-outage", caller, PROD, reason -> {
                cutAt.complete(clock.instant());
                cut.complete(reason.text());
            });
            clock.advance(Duration.ofSeconds(1));
            ticker.tick();
            Instant lastPassed = clock.instant();

            down.set(true);
            for (int second = 0; second < 30 && !cut.isDone(); second++) {
                clock.advance(Duration.ofSeconds(1));
                ticker.tick();
            }

            assertThat(cut.getNow("not cut")).isEqualTo(DATABASE_CUT);
            assertThat(Duration.between(lastPassed, cutAt.get()))
                    .as("unchecked from its last passed check to its cut")
                    .isLessThanOrEqualTo(OpenCalls.OUTAGE_GRACE)
                    .isGreaterThanOrEqualTo(OpenCalls.OUTAGE_GRACE.minus(OpenCalls.CHECK_EVERY)
                            .minus(OpenCalls.CHECK_WAIT));
        }
    }

    /**
     * A database that does not answer at all (packets dropped, a pool that never hands a
     * connection) holds a pass for {@link OpenCalls#CHECK_WAIT}, not for ever: the read is given up
     * and interrupted, and counts as the database being away.
     */
    @Test
    void aCheckThatGetsNoAnswerIsGivenUpAfterItsWaitAndCountsAsTheDatabaseAway() throws Exception {
        AtomicInteger interrupted = new AtomicInteger();
        CallChecks hanging = new ScriptedChecks(() -> {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
            }
            throw new DatabaseUnavailableException("interrupted", null);
        }, () -> caller);
        ManualTicker ticker = new ManualTicker();
        try (OpenCalls guard = new OpenCalls(hanging, clock, ticker, Duration.ofSeconds(1))) {
            guard.start();
            CompletableFuture<String> cut = new CompletableFuture<>();
            guard.open("hanging", caller, PROD, reason -> cut.complete(reason.text()));

            long started = System.nanoTime();
            tickWithin(ticker);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("one pass on a database that hangs")
                    .isLessThan(OpenCalls.CHECK_WAIT.plusMillis(1500));
            Eventually.until("the hanging read interrupted", Duration.ofSeconds(5), () -> interrupted.get() == 1);
            assertThat(cut).as("kept: its last check passed a moment ago").isNotDone();

            clock.advance(OpenCalls.OUTAGE_GRACE);
            tickWithin(ticker);

            assertThat(cut.getNow("not cut")).isEqualTo(DATABASE_CUT);
        }
    }

    /**
     * A read that ignores its interrupt (a driver blocked where an interrupt does not reach) is
     * not joined by another at each tick: the guard waits for it, within each pass's wait, and
     * asks again only once it has ended.
     */
    @Test
    void readsDoNotPileUpOnADatabaseThatHolds() throws Exception {
        Semaphore answer = new Semaphore(0);
        AtomicInteger reads = new AtomicInteger();
        AtomicLong counter = new AtomicLong(caller.generation());
        CallChecks holding = new ScriptedChecks(() -> {
            if (reads.incrementAndGet() == 1) {
                answer.acquireUninterruptibly();
            }
            return counter.incrementAndGet();
        }, () -> caller);
        ManualTicker ticker = new ManualTicker();
        try (OpenCalls guard = new OpenCalls(holding, clock, ticker, Duration.ofSeconds(1), Duration.ofMillis(200),
                new CompositeMeterRegistry())) {
            guard.start();
            CompletableFuture<String> cut = new CompletableFuture<>();
            guard.open("held", caller, PROD, reason -> cut.complete(reason.text()));

            for (int pass = 0; pass < 3; pass++) {
                tickWithin(ticker);
            }
            assertThat(reads).as("reads started while the first one is held").hasValue(1);

            answer.release();
            Eventually.until("a pass that reads again once the held read ended", Duration.ofSeconds(5), () -> {
                tickWithin(ticker);
                return reads.get() == 2;
            });
            assertThat(cut).isNotDone();
        }
    }

    @Test
    void aDefectInTheCheckCutsTheStreamAtOnceInsteadOfKeepingIt() throws Exception {
        CallChecks broken = new ScriptedChecks(() -> caller.generation() + 1, () -> {
            throw new NullPointerException("a defect in the check");
        });
        ManualTicker ticker = new ManualTicker();
        try (OpenCalls guard = new OpenCalls(broken, clock, ticker, Duration.ofSeconds(1))) {
            guard.start();
            CompletableFuture<String> cut = new CompletableFuture<>();
            guard.open("defect", caller, PROD, reason -> cut.complete(reason.text()));

            ticker.tick();

            assertThat(cut.getNow("not cut")).isEqualTo("stream cortado: error interno al comprobar la credencial");
        }
    }

    @Test
    void aCounterThatCannotBeReadForAnotherReasonCutsEveryStream() throws Exception {
        CallChecks broken = new ScriptedChecks(() -> {
            throw new IllegalStateException("a defect reading the counter");
        }, () -> caller);
        ManualTicker ticker = new ManualTicker();
        try (OpenCalls guard = new OpenCalls(broken, clock, ticker, Duration.ofSeconds(1))) {
            guard.start();
            CompletableFuture<String> first = new CompletableFuture<>();
            CompletableFuture<String> second = new CompletableFuture<>();
            guard.open("first", caller, PROD, reason -> first.complete(reason.text()));
            guard.open("second", caller, PROD, reason -> second.complete(reason.text()));

            ticker.tick();

            assertThat(first.getNow("not cut")).isEqualTo("stream cortado: error interno al comprobar la credencial");
            assertThat(second.getNow("not cut")).isEqualTo(first.get());
        }
    }

    @Test
    void aDatabaseOutageDefersTheCutForTheGraceOnlyThenCutsWithItsOwnText() throws Exception {
        CallChecks away = new ScriptedChecks(() -> caller.generation() + 1, () -> {
            throw outage();
        });
        ManualTicker ticker = new ManualTicker();
        try (OpenCalls guard = new OpenCalls(away, clock, ticker, Duration.ofSeconds(1))) {
            guard.start();
            CompletableFuture<String> cut = new CompletableFuture<>();
            guard.open("outage", caller, PROD, reason -> cut.complete(reason.text()));
            ticker.tick(3);
            assertThat(cut).as("kept while the database is away for less than the grace").isNotDone();

            clock.advance(OpenCalls.OUTAGE_GRACE);
            ticker.tick();

            assertThat(cut.getNow("not cut"))
                    .isEqualTo("stream cortado: Klave no puede consultar su base de datos para comprobar la credencial");
        }
    }

    @Test
    void anUnreadableCounterCountsAsAnOutageToo() throws Exception {
        CallChecks away = new ScriptedChecks(() -> {
            throw outage();
        }, () -> caller);
        ManualTicker ticker = new ManualTicker();
        try (OpenCalls guard = new OpenCalls(away, clock, ticker, Duration.ofSeconds(1))) {
            guard.start();
            CompletableFuture<String> cut = new CompletableFuture<>();
            guard.open("counter", caller, PROD, reason -> cut.complete(reason.text()));
            ticker.tick(3);
            assertThat(cut).isNotDone();

            clock.advance(OpenCalls.OUTAGE_GRACE);
            ticker.tick();

            assertThat(cut.getNow("not cut")).startsWith("stream cortado: Klave no puede consultar");
        }
    }

    @Test
    void aDatabaseBackWithinTheGraceKeepsTheStreamAndStartsTheGraceAfresh() throws Exception {
        AtomicBoolean down = new AtomicBoolean(true);
        AtomicLong counter = new AtomicLong(caller.generation());
        CallChecks flaky = new ScriptedChecks(counter::incrementAndGet, () -> {
            if (down.get()) {
                throw outage();
            }
            return caller;
        });
        ManualTicker ticker = new ManualTicker();
        try (OpenCalls guard = new OpenCalls(flaky, clock, ticker, Duration.ofSeconds(1))) {
            guard.start();
            CompletableFuture<String> cut = new CompletableFuture<>();
            guard.open("flaky", caller, PROD, reason -> cut.complete(reason.text()));
            ticker.tick(2);
            clock.advance(OpenCalls.OUTAGE_GRACE.minusSeconds(1));
            down.set(false);
            ticker.tick();
            down.set(true);
            ticker.tick();
            clock.advance(Duration.ofSeconds(2));
            ticker.tick(3);

            assertThat(cut).as("the second outage has lasted 2 s, not 9").isNotDone();
        }
    }
}
