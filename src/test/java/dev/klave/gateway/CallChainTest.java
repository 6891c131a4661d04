package dev.klave.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.Login;
import dev.klave.account.Subject;
import dev.klave.audit.AuditIds;
import dev.klave.audit.AuditRow;
import dev.klave.audit.Channel;
import dev.klave.cluster.BootstrapSecrets;
import dev.klave.cluster.ClusterId;
import dev.klave.credential.Credential;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.testing.ManualTicker;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingTls;
import java.net.InetAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The chain's contract (issue 52), held by the chain itself, with a testing transport and a
 * testing admission — no Klave, no cluster: a call is registered with the stream guard before its
 * transport sees the one request it may send; a preview's wire request is a dry run; a call
 * handed to a transport is known until it ends, and ends once; a cut reaches the transport with
 * its reason, on the transport's executor; a refusal reaches it with nothing registered; a wait is
 * a call of the chain until closed.
 */
class CallChainTest {
    private static final ClusterPath CONFIGMAPS = ClusterPath.of("api", "v1", "namespaces", "team-a", "configmaps");
    private static final ClusterId PROD = new ClusterId("prod-1");

    private final TestingClock clock = new TestingClock();
    private final AuditIds ids = new AuditIds(clock);
    private final List<AuditRow.Completion> completions = new CopyOnWriteArrayList<>();
    private OpenCalls streams;
    private Caller caller;
    private Optional<Refusal> refusing = Optional.empty();
    private CallChain chain;

    @BeforeEach
    void start() throws Exception {
        String ca = Files.readString(TestingTls.generate().certificate());
        BootstrapSecrets secrets = BootstrapSecrets.of("https://127.0.0.1:6443", ca, "proxy-token", "reconciler-token");
        Subject ana = Subject.newPerson(new Login("ana"), "Ana", Optional.empty(), false, false, Instant.EPOCH);
        Bearer bearer = new Bearer.OfCredential(new Credential("cred-1", "hash", ana.id(), Optional.empty(), "portátil",
                "", Instant.EPOCH, Instant.MAX, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        caller = new Caller(ana, bearer, "user:ana", List.of("service:view:team-a"), secrets, 1, Instant.MAX);
        streams = new OpenCalls(new CallChecks() {
            @Override
            public long generation() {
                return 1;
            }

            @Override
            public Caller recheck(String bearerId, ClusterId cluster, long generation) {
                return caller;
            }
        }, clock, new ManualTicker(), Duration.ofSeconds(1));
        chain = new CallChain(new TestingAdmissions());
    }

    @AfterEach
    void stop() {
        streams.close();
    }

    /** Admits every call as {@link #caller}, unless told to refuse. */
    private final class TestingAdmissions implements Admissions {
        private CompletableFuture<Admission> admitted(Ending ending, Call call) {
            return CompletableFuture.completedFuture(refusing.<Admission>map(Admission.Refused::new)
                    .orElseGet(() -> new Admission.Admitted(new Carried(ending.auditId(), call, caller, ending,
                            streams))));
        }

        @Override
        public CompletableFuture<Admission> admit(Ending ending, Resolved resolved, Call call) {
            return admitted(ending, call);
        }

        @Override
        public CompletableFuture<Admission> admit(Ending ending, LongFunction<Bearer> resolve, Call call) {
            return admitted(ending, call);
        }

        @Override
        public CompletableFuture<Admission> admit(Ending ending, Bearer bearer, Call call) {
            return admitted(ending, call);
        }

        @Override
        public Caller check(Bearer bearer, ClusterId cluster) {
            refusing.ifPresent(refusal -> {
                throw refusal;
            });
            return caller;
        }

        @Override
        public OpenCalls streams() {
            return streams;
        }
    }

    /** What a transport saw, in order; ends the call when told to. */
    private final class TestingTransport implements Transport {
        final List<String> seen = new ArrayList<>();
        final List<Runnable> deferred = new ArrayList<>();
        Wire wire;
        Carried carried;
        final boolean endsAtOnce;

        TestingTransport(boolean endsAtOnce) {
            this.endsAtOnce = endsAtOnce;
        }

        @Override
        public java.util.concurrent.Executor executor() {
            // The transport's own thread, as the proxy's event loop is: run when the test says.
            return deferred::add;
        }

        @Override
        public void refused(Refusal refusal) {
            seen.add("refused " + refusal.status());
        }

        @Override
        public void send(Wire wire, Carried call) {
            seen.add("send, registered: " + streams.size());
            this.wire = wire;
            this.carried = call;
            if (endsAtOnce) {
                call.end(200, Optional.empty());
                call.end(500, Optional.of("a second ending"));
            }
        }

        @Override
        public void cut(CutReason reason, Carried call) {
            seen.add("cut " + reason);
            call.end(reason.refusal().status(), reason);
        }

        void runSteps() {
            List<Runnable> now = new ArrayList<>(deferred);
            deferred.clear();
            now.forEach(Runnable::run);
        }
    }

    private Ending ending() {
        return new Ending(ids.next(), streams, completions::add, clock);
    }

    private static Call get() {
        return Call.of(PROD, Method.GET, CONFIGMAPS, Query.NONE, InetAddress.getLoopbackAddress(),
                Channel.tool("list_resources"));
    }

    private static Call preview() {
        return Call.preview(PROD, Method.PATCH, CONFIGMAPS, Query.parse("dryRun=All"),
                InetAddress.getLoopbackAddress(), Channel.tool("apply_manifest"));
    }

    @Test
    void aCallIsRegisteredBeforeItsTransportSeesTheOneRequestItMaySendAndEndsOnce() {
        TestingTransport transport = new TestingTransport(true);
        Ending ending = ending();

        chain.run(ending, Resolved.fresh(caller.bearer()), get(), transport);
        transport.runSteps();

        assertThat(transport.seen).containsExactly("send, registered: 1");
        assertThat(transport.wire.uri().toString())
                .isEqualTo("https://127.0.0.1:6443/api/v1/namespaces/team-a/configmaps");
        assertThat(transport.wire.target()).isEqualTo("/api/v1/namespaces/team-a/configmaps");
        assertThat(transport.wire.impersonation()).extracting(header -> header.getKey() + ": " + header.getValue())
                .contains("Impersonate-User: user:ana", "Impersonate-Group: service:view:team-a");
        assertThat(completions).as("one ending recorded: the first").singleElement()
                .satisfies(completion -> assertThat(completion.status()).isEqualTo(200));
        assertThat(streams.size()).as("the ended call left the stream guard").isZero();
        assertThat(chain.unended()).isEmpty();
    }

    @Test
    void aPreviewsWireRequestIsADryRun() {
        TestingTransport transport = new TestingTransport(true);

        chain.run(ending(), Resolved.fresh(caller.bearer()), preview(), transport);
        transport.runSteps();

        assertThat(Query.parse(transport.wire.uri().getRawQuery()).dryRun()).isTrue();
    }

    @Test
    void aCallItsTransportNeverEndsIsKnownUntilItEnds() {
        TestingTransport transport = new TestingTransport(false);
        Ending ending = ending();

        chain.run(ending, Resolved.fresh(caller.bearer()), get(), transport);
        transport.runSteps();

        assertThat(chain.unended()).as("a leak the tests catch").containsExactly(ending.auditId());
        transport.carried.end(204, Optional.empty());
        assertThat(chain.unended()).isEmpty();
    }

    @Test
    void aCutReachesTheTransportWithItsReasonOnTheTransportsThread() {
        TestingTransport transport = new TestingTransport(false);
        chain.run(ending(), Resolved.fresh(caller.bearer()), get(), transport);
        transport.runSteps();

        streams.cutAll();
        assertThat(transport.seen).as("not before the transport's thread runs it").containsExactly(
                "send, registered: 1");
        transport.runSteps();

        assertThat(transport.seen).containsExactly("send, registered: 1", "cut SHUTDOWN");
        assertThat(completions).singleElement().satisfies(completion -> assertThat(completion.error())
                .contains(CutReason.SHUTDOWN.text()));
        assertThat(chain.unended()).isEmpty();
    }

    @Test
    void aRefusalReachesTheTransportWithNothingRegisteredOrSent() {
        refusing = Optional.of(Message.CREDENTIAL_REVOKED.refusal());
        TestingTransport transport = new TestingTransport(true);

        chain.run(ending(), Resolved.fresh(caller.bearer()), get(), transport);
        transport.runSteps();

        assertThat(transport.seen).containsExactly("refused 401");
        assertThat(transport.wire).isNull();
        assertThat(streams.size()).isZero();
        assertThat(chain.unended()).isEmpty();
    }

    @Test
    void aWaitIsACallOfTheChainCutLikeOneAndKnownUntilClosed() {
        CallChain.Held held = chain.hold(caller.bearer(), PROD);
        assertThat(chain.unended()).hasSize(1);
        assertThat(streams.size()).isEqualTo(1);

        streams.cutAll();
        assertThat(held.cut()).contains(CutReason.SHUTDOWN);
        assertThat(Thread.interrupted()).as("the waiting thread was interrupted").isTrue();

        held.close();
        assertThat(chain.unended()).isEmpty();
        assertThat(streams.size()).isZero();
    }
}
