package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.ClusterId;
import dev.klave.logs.LogFields;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Untrusted;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A call to a cluster as one chain of steps, whichever way it came in (issue 52; OkHttp's
 * {@code RealInterceptorChain} and Pinniped's impersonator are the models): the bearer admitted
 * and the audit row durable ({@link Gateway}), the call registered with the stream guard, the one
 * wire request built ({@link Wire}) — then, and only then, its {@link Transport}. Transports no
 * longer order these steps themselves; the chain enforces its contract:
 *
 * <ol>
 *   <li>a call is registered before any byte of it can leave — the transport gets its URI and
 *       impersonation only in the {@link Wire}, which exists only once it is;
 *   <li>a preview leaves only as a dry run, read back from the wire whatever the transport;
 *   <li>a call ends exactly once: at most once by its {@link Ending}, and the chain knows each call
 *       it handed to a transport until it ends ({@link #unended()}), so one that never ends is a
 *       failed test, not a leak found in production.
 * </ol>
 */
public final class CallChain {
    private static final Logger LOG = LoggerFactory.getLogger(CallChain.class);

    private final Admissions gateway;
    /** Calls handed to a transport and not ended yet. */
    private final Set<Carried> carried = ConcurrentHashMap.newKeySet();
    /** Waits held and not closed yet. */
    private final Set<Held> waits = ConcurrentHashMap.newKeySet();

    public CallChain(Gateway gateway) {
        this((Admissions) gateway);
    }

    /** On any admission: the gateway's, or a test's. */
    CallChain(Admissions gateway) {
        this.gateway = requireNonNull(gateway, "gateway is null");
    }

    /**
     * Runs a call of a bearer its edge resolved, on {@code transport} once admitted (or tells it of
     * the refusal), on the transport's executor. Completes when the transport has it.
     */
    public CompletableFuture<Void> run(Ending ending, Resolved resolved, Call call, Transport transport) {
        return carry(gateway.admit(ending, resolved, call), transport);
    }

    /** As {@link #run(Ending, Resolved, Call, Transport)} for a bearer resolved only now, from the token presented. */
    public CompletableFuture<Void> run(Ending ending, LongFunction<Bearer> resolve, Call call, Transport transport) {
        return carry(gateway.admit(ending, resolve, call), transport);
    }

    /**
     * As {@link #run(Ending, Resolved, Call, Transport)}, on the calling thread, which waits for the
     * admission (a tool's exchange, on its own virtual thread) and then carries the call itself.
     */
    public void runHere(Ending ending, Bearer bearer, Call call, Transport transport) {
        step(gateway.admit(ending, bearer, call).join(), transport);
    }

    private CompletableFuture<Void> carry(CompletableFuture<Admission> admission, Transport transport) {
        CompletableFuture<Void> handed = new CompletableFuture<>();
        admission.whenComplete((admitted, failure) -> transport.executor().execute(() -> {
            try {
                step(failure == null ? admitted : new Admission.Refused(Message.INTERNAL_ERROR.refusal()), transport);
            } finally {
                handed.complete(null);
            }
        }));
        return handed;
    }

    private void step(Admission admission, Transport transport) {
        switch (admission) {
            case Admission.Refused refused -> transport.refused(refused.refusal());
            case Admission.Admitted admitted -> send(admitted.call(), transport);
        }
    }

    /** Registration, the wire, then the transport. */
    private void send(Carried call, Transport transport) {
        carried.add(call);
        call.holding(() -> carried.remove(call));
        call.register(reason -> transport.executor().execute(() -> transport.cut(reason, call)));
        Wire wire;
        try {
            wire = Wire.of(call.call(), call.caller());
        } catch (IllegalStateException e) {
            // Nothing was sent: the call ends, its row says so (a defect of Klave's, never the client's).
            call.answered();
            LOG.atError().addKeyValue(LogFields.AUDIT_ID, call.auditId()).log("call {} to cluster {} not sent: {}",
                    call.auditId(), call.call().cluster(), Untrusted.text(e.toString()));
            call.end(Message.PREVIEW_NOT_DRY_RUN.status(), Optional.of(Message.PREVIEW_NOT_DRY_RUN.text()));
            transport.refused(Message.PREVIEW_NOT_DRY_RUN.refusal());
            return;
        }
        transport.send(wire, call);
    }

    /**
     * Holds a wait of {@code bearer}'s on {@code cluster} among the open calls, as a call of the
     * chain — a tool waiting for a person's approval of its write (spec 3 §4 "Write approval flow"
     * 3) — so that what cuts a call cuts the wait too: the waiting thread is interrupted, and {@link
     * Held#cut()} says why. It is among the chain's calls until closed.
     *
     * @throws Refusal when the bearer may not act on the cluster now
     */
    public Held hold(Bearer bearer, ClusterId cluster) {
        Caller caller = gateway.check(bearer, cluster);
        Held held = new Held(UUID.randomUUID().toString(), Thread.currentThread());
        waits.add(held);
        gateway.streams().open(held.id, caller, cluster, held::cutBy);
        return held;
    }

    /** A wait held open; closing it (however the wait ended) takes it out of the open calls. */
    public final class Held implements AutoCloseable {
        private final String id;
        private final Thread waiting;
        private final AtomicReference<CutReason> cut = new AtomicReference<>();

        private Held(String id, Thread waiting) {
            this.id = id;
            this.waiting = waiting;
        }

        private void cutBy(CutReason reason) {
            cut.set(reason);
            waiting.interrupt();
        }

        /** Why the wait was cut, if it was. */
        public Optional<CutReason> cut() {
            return Optional.ofNullable(cut.get());
        }

        @Override
        public void close() {
            gateway.streams().closed(id);
            waits.remove(this);
        }
    }

    /** The calls handed to a transport, and the waits held, that have not ended: none, once every one is done. */
    public List<String> unended() {
        return Stream.concat(carried.stream().filter(call -> !call.ended()).map(Carried::auditId),
                waits.stream().map(wait -> wait.id)).sorted().toList();
    }
}
