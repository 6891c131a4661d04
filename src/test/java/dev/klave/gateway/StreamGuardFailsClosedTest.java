package dev.klave.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.cluster.ClusterId;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.storage.DatabaseUnavailableException;
import dev.klave.testing.ManualTicker;
import dev.klave.testing.TestingAccess;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The stream guard fails closed: only the database being away may keep a stream open without a
 * check, and only for {@link OpenCalls#OUTAGE_GRACE}; a failing check of any other kind (a
 * defect) cuts at once. Each stream's audit text says which. The test drives the guard's ticks.
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
        caller = klave.klave().services().gateway().checks().admit(Bearers.token(Optional.of("Bearer " + ana.token())),
                PROD, credential -> {});
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
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicLong counter = new java.util.concurrent.atomic.AtomicLong(caller.generation());
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
