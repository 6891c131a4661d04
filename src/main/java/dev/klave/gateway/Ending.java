package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.AuditRow;
import java.time.Clock;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The handle that ends one call: completes its audit row once — the first ending (the answer, a
 * cut, the client hanging up) is the one recorded — takes the call out of the open calls, and gives
 * up the place it held among its credential's requests or streams. Made by
 * {@link Gateway#ending(String)} when the call arrives, before it is admitted, so that a client
 * leaving during admission ends it as well.
 */
public final class Ending {
    private final String auditId;
    private final OpenCalls calls;
    /** Where the row's completion goes: the audit writer's queue. */
    private final Consumer<AuditRow.Completion> audit;
    private final Clock clock;
    /** Told the status of the ending recorded (the proxy's meters); once, like the row. */
    private final IntConsumer observer;
    private final AtomicBoolean ended = new AtomicBoolean();
    /** What the call holds (a place among its credential's requests, a pool's count), given up when it ends. */
    private final Queue<Runnable> held = new ConcurrentLinkedQueue<>();

    public Ending(String auditId, OpenCalls calls, Consumer<AuditRow.Completion> audit, Clock clock) {
        this(auditId, calls, audit, clock, status -> { });
    }

    /** @param observer told the status recorded, once, after the row's completion is queued */
    public Ending(String auditId, OpenCalls calls, Consumer<AuditRow.Completion> audit, Clock clock,
            IntConsumer observer) {
        this.auditId = requireNonNull(auditId, "auditId is null");
        this.calls = requireNonNull(calls, "calls is null");
        this.audit = requireNonNull(audit, "audit is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.observer = requireNonNull(observer, "observer is null");
    }

    /** Records how the call ended, unless it ended already. */
    public void end(int status, Optional<String> error) {
        if (ended.compareAndSet(false, true)) {
            calls.closed(auditId);
            audit.accept(new AuditRow.Completion(auditId, status, error, clock.instant()));
            releaseHeld();
            observer.accept(status);
        }
    }

    /** Gives {@code place} up when the call ends, or at once if it has ended already; each place once. */
    public void holding(Runnable place) {
        held.add(requireNonNull(place, "place is null"));
        // Ended already, or ending now: whoever polls a place first runs it, once.
        if (ended.get()) {
            releaseHeld();
        }
    }

    /** The call's Audit-ID. */
    public String auditId() {
        return auditId;
    }

    /** Whether the call has ended. */
    public boolean ended() {
        return ended.get();
    }

    private void releaseHeld() {
        for (Runnable place; (place = held.poll()) != null; ) {
            place.run();
        }
    }
}
