package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.cluster.ClusterId;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.storage.DatabaseUnavailableException;
import dev.klave.testing.TestingAccess;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The stream guard fails closed: only the database being away may keep a stream open without a
 * check, and only for {@link OpenStreams#OUTAGE_GRACE}; a failing check of any other kind (a
 * defect) cuts at once. Each stream's audit text says which.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamGuardFailsClosedTest {
    private static final ClusterId PROD = new ClusterId("prod-1");
    private static final Duration TICK = Duration.ofMillis(50);

    private final TestingClock clock = new TestingClock();
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private ProxyCaller caller;

    @BeforeAll
    void start() throws Exception {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(clock, settings -> settings);
        TestingAccess.Viewer ana = TestingAccess.viewer(klave, cluster);
        caller = klave.klave().services().proxyAuthenticator().admit(Optional.of("Bearer " + ana.token()), PROD,
                credential -> {});
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    /** Checks whose counter always moved (so every tick checks in full), each answer given by the test. */
    private final class ScriptedChecks implements StreamChecks {
        private final Supplier<Long> generation;
        private final Supplier<ProxyCaller> recheck;

        ScriptedChecks(Supplier<Long> generation, Supplier<ProxyCaller> recheck) {
            this.generation = generation;
            this.recheck = recheck;
        }

        @Override
        public long generation() {
            return generation.get();
        }

        @Override
        public ProxyCaller recheck(String credentialId, ClusterId cluster, long generation) {
            return recheck.get();
        }
    }

    private static DatabaseUnavailableException outage() {
        return new DatabaseUnavailableException("connection refused", null);
    }

    @Test
    void aDefectInTheCheckCutsTheStreamAtOnceInsteadOfKeepingIt() throws Exception {
        StreamChecks broken = new ScriptedChecks(() -> caller.generation() + 1, () -> {
            throw new NullPointerException("a defect in the check");
        });
        try (OpenStreams guard = new OpenStreams(broken, clock, TICK)) {
            CompletableFuture<String> cut = new CompletableFuture<>();
            guard.open(new OpenStreams.Stream("defect", caller, PROD, cut::complete));

            assertThat(cut.get(5, TimeUnit.SECONDS)).isEqualTo("stream cortado: error interno al comprobar la credencial");
        }
    }

    @Test
    void aCounterThatCannotBeReadForAnotherReasonCutsEveryStream() throws Exception {
        StreamChecks broken = new ScriptedChecks(() -> {
            throw new IllegalStateException("a defect reading the counter");
        }, () -> caller);
        try (OpenStreams guard = new OpenStreams(broken, clock, TICK)) {
            CompletableFuture<String> first = new CompletableFuture<>();
            CompletableFuture<String> second = new CompletableFuture<>();
            guard.open(new OpenStreams.Stream("first", caller, PROD, first::complete));
            guard.open(new OpenStreams.Stream("second", caller, PROD, second::complete));

            assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("stream cortado: error interno al comprobar la credencial");
            assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo(first.get());
        }
    }

    @Test
    void aDatabaseOutageDefersTheCutForTheGraceOnlyThenCutsWithItsOwnText() throws Exception {
        StreamChecks away = new ScriptedChecks(() -> caller.generation() + 1, () -> {
            throw outage();
        });
        try (OpenStreams guard = new OpenStreams(away, clock, TICK)) {
            CompletableFuture<String> cut = new CompletableFuture<>();
            guard.open(new OpenStreams.Stream("outage", caller, PROD, cut::complete));
            Thread.sleep(TICK.toMillis() * 6);
            assertThat(cut).as("kept while the database is away for less than the grace").isNotDone();

            clock.advance(OpenStreams.OUTAGE_GRACE);

            assertThat(cut.get(5, TimeUnit.SECONDS))
                    .isEqualTo("stream cortado: Klave no puede consultar su base de datos para comprobar la credencial");
        }
    }

    @Test
    void anUnreadableCounterCountsAsAnOutageToo() throws Exception {
        StreamChecks away = new ScriptedChecks(() -> {
            throw outage();
        }, () -> caller);
        try (OpenStreams guard = new OpenStreams(away, clock, TICK)) {
            CompletableFuture<String> cut = new CompletableFuture<>();
            guard.open(new OpenStreams.Stream("counter", caller, PROD, cut::complete));
            Thread.sleep(TICK.toMillis() * 6);
            assertThat(cut).isNotDone();

            clock.advance(OpenStreams.OUTAGE_GRACE);

            assertThat(cut.get(5, TimeUnit.SECONDS)).startsWith("stream cortado: Klave no puede consultar");
        }
    }

    @Test
    void aDatabaseBackWithinTheGraceKeepsTheStreamAndStartsTheGraceAfresh() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicLong counter = new java.util.concurrent.atomic.AtomicLong(caller.generation());
        StreamChecks flaky = new ScriptedChecks(counter::incrementAndGet, () -> {
            if (down.get()) {
                throw outage();
            }
            return caller;
        });
        try (OpenStreams guard = new OpenStreams(flaky, clock, TICK)) {
            CompletableFuture<String> cut = new CompletableFuture<>();
            guard.open(new OpenStreams.Stream("flaky", caller, PROD, cut::complete));
            Thread.sleep(TICK.toMillis() * 4);
            clock.advance(OpenStreams.OUTAGE_GRACE.minusSeconds(1));
            down.set(false);
            // Several ticks, so that one of them surely checks while the database answers.
            Thread.sleep(TICK.toMillis() * 10);
            down.set(true);
            Thread.sleep(TICK.toMillis() * 10);
            clock.advance(Duration.ofSeconds(2));
            Thread.sleep(TICK.toMillis() * 10);

            assertThat(cut).as("the second outage has lasted 2 s, not 9").isNotDone();
        }
    }
}
