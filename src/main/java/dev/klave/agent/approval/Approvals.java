package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.account.SubjectKind;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.cluster.ClusterId;
import dev.klave.messages.Message;
import dev.klave.storage.DatabaseUnavailableException;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Held writes (spec 3 §3 "Write request", §4 "Write approval flow"): holding one, waiting for a
 * person's decision, deciding, and running an approved one exactly once.
 */
public final class Approvals implements AutoCloseable {
    /** Spec 3 §8: pending write requests per account. */
    public static final int MAX_PENDING = 20;
    /** How long a write request waits for a decision (spec 3 §3: not shown; ours). */
    public static final Duration LIFETIME = Duration.ofHours(1);
    /** How often a waiter reads its request again, should an announcement of a decision be lost. */
    public static final Duration RECHECK = Duration.ofSeconds(5);
    /** The most requests a decider's list shows. */
    static final int LISTED = 100;

    private final Transactions transactions;
    private final WriteRequestStore store;
    private final SubjectStore subjects;
    private final ControlEvents events;
    private final DecisionSignals signals;
    private final RequestIds ids;
    private final Clock clock;
    private final Duration recheck;
    private final RequestNotices notices;
    private final Waiters waiters = new Waiters();
    private final Asking asking;

    /** Whether what asked for a held write can still run it: its agent session open, its credential in force. */
    @FunctionalInterface
    public interface Asking {
        boolean canRun(Actor actor);
    }

    /**
     * @param recheck how often a waiter reads its request again without being woken (tests: long)
     * @param notices told of each write held, in its transaction (issue 41: the deciders are notified)
     * @param asking whether a held write's asker can still run it: an approval of one that cannot is
     *     refused, saying so (issue 51 §19), rather than "approved" with nothing to run it
     */
    public Approvals(Transactions transactions, WriteRequestStore store, SubjectStore subjects, ControlEvents events,
            DecisionSignals signals, RequestIds ids, Clock clock, Duration recheck, RequestNotices notices,
            Asking asking) {
        this.asking = requireNonNull(asking, "asking is null");
        this.notices = requireNonNull(notices, "notices is null");
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.store = requireNonNull(store, "store is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.events = requireNonNull(events, "events is null");
        this.signals = requireNonNull(signals, "signals is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.recheck = requireNonNull(recheck, "recheck is null");
        if (recheck.isNegative() || recheck.isZero()) {
            throw new IllegalArgumentException("recheck is positive");
        }
    }

    /** Starts hearing decisions made on any replica (the listener's thread, with PostgreSQL). */
    public void start() {
        signals.start(waiters::wake);
    }

    /**
     * Stores a new pending request, or returns the pending one of the same actor with the same
     * arguments (spec 3 §3: "the same first call repeated"). Counting and inserting are one
     * transaction holding the account's lock, so no two replicas pass the limit together.
     *
     * @throws dev.klave.messages.Refusal {@code agent.too_many_pending} when the account already
     *     has {@link #MAX_PENDING} pending
     */
    public WriteRequest hold(Actor actor, Optional<SubjectId> decider, ClusterId cluster, String namespace,
            String tool, String verb, String resource, String name, String argumentsHash, HeldCall call,
            String preview) {
        Instant now = clock.instant();
        WriteRequest fresh = new WriteRequest(ids.write(), actor, decider, cluster, namespace, tool, verb, resource,
                name, argumentsHash, call, preview, WriteStatus.PENDING, now, now.plus(LIFETIME), Optional.empty(),
                Optional.empty(), Optional.empty());
        return transactions.inTransaction(() -> {
            store.lockSubject(actor.subject());
            Optional<WriteRequest> same = store.findPending(actor, argumentsHash, now);
            if (same.isPresent()) {
                return same.get();
            }
            if (store.countPending(actor.subject(), now) >= MAX_PENDING) {
                throw Message.AGENT_TOO_MANY_PENDING.refusal(MAX_PENDING);
            }
            store.create(fresh);
            notices.writeWaiting(fresh);
            return fresh;
        });
    }

    /** The pending, unexpired request of {@code actor} with these arguments, if one is held. */
    /**
     * Whether the account already has {@link #MAX_PENDING} requests waiting: asked before a dry run
     * is sent, so a write that cannot be held costs the cluster nothing ({@link #hold} decides again).
     */
    public boolean full(SubjectId subject) {
        return store.countPending(subject, clock.instant()) >= MAX_PENDING;
    }

    public Optional<WriteRequest> pending(Actor actor, String argumentsHash) {
        return store.findPending(actor, argumentsHash, clock.instant());
    }

    public Optional<WriteRequest> find(String id) {
        return store.findById(id);
    }

    /**
     * Waits while the request is pending and unexpired, up to {@code max}, and returns it as it
     * stands then. A decision on any replica wakes the wait at once; so does {@link #close()}.
     *
     * @throws InterruptedException when the waiting thread is interrupted (the client left, the
     *     call was cut)
     * @throws dev.klave.messages.Refusal {@code NOT_FOUND} for an unknown id
     */
    public WriteRequest await(String id, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        Thread self = Thread.currentThread();
        waiters.add(id, self);
        try {
            while (true) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("waiting for a decision on " + id);
                }
                WriteRequest request = read(id);
                Instant now = clock.instant();
                long left = deadline - System.nanoTime();
                if (request.statusAt(now) != WriteStatus.PENDING || left <= 0 || waiters.closed()) {
                    return request;
                }
                long untilExpiry = Duration.between(now, request.expiresAt()).toNanos();
                LockSupport.parkNanos(this, Math.min(left, Math.min(untilExpiry, recheck.toNanos())));
            }
        } finally {
            waiters.remove(id, self);
        }
    }

    /**
     * The request as stored. An interrupt that lands while the database is being read (the pool's
     * wait, the driver's socket) surfaces there as the database failing: it is the interrupt it
     * is, so a client that left is told apart from a database that is down.
     */
    private WriteRequest read(String id) throws InterruptedException {
        try {
            return store.findById(id).orElseThrow(Message.NOT_FOUND::refusal);
        } catch (DatabaseUnavailableException e) {
            if (Thread.interrupted() || interruptedCause(e)) {
                throw new InterruptedException("waiting for a decision on " + id);
            }
            throw e;
        }
    }

    private static boolean interruptedCause(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException) {
                return true;
            }
        }
        return failure.getMessage() != null && failure.getMessage().contains("InterruptedException");
    }

    /** How many calls of this replica wait for a decision on {@code id} (what an operator, or a test, can watch). */
    public int waiting(String id) {
        return waiters.waiting(id);
    }

    /** Approved → executed, once across replicas; false when someone else ran it or it is not approved. */
    public boolean claim(String id) {
        return store.markExecuted(id, clock.instant());
    }

    /** The request, if {@code caller} may see and decide it; otherwise nothing, as if it did not exist. */
    public Optional<WriteRequest> decidable(String id, Principal caller) {
        return store.findById(id).filter(request -> DecisionRights.allows(request.decider(), caller));
    }

    /** The requests {@code caller} decides: pending ones first, then the rest, each newest first. */
    public List<WriteRequest> decidableBy(Principal caller) {
        Instant now = clock.instant();
        Stream<WriteRequest> own = store.forDecider(Optional.of(caller.subjectId()), now, LISTED).stream();
        Stream<WriteRequest> all = caller.admin()
                ? Stream.concat(own, store.forDecider(Optional.empty(), now, LISTED).stream()) : own;
        return all.sorted(Comparator.comparing((WriteRequest request) -> request.statusAt(now) != WriteStatus.PENDING)
                .thenComparing(WriteRequest::createdAt, Comparator.reverseOrder())).limit(LISTED).toList();
    }

    public WriteRequest approve(String id, Principal by) {
        return decide(id, by, WriteStatus.APPROVED, EventType.AGENT_WRITE_APPROVED);
    }

    public WriteRequest deny(String id, Principal by) {
        return decide(id, by, WriteStatus.DENIED, EventType.AGENT_WRITE_DENIED);
    }

    private WriteRequest decide(String id, Principal by, WriteStatus to, EventType type) {
        WriteRequest request = decidable(id, by).orElseThrow(Message.NOT_FOUND::refusal);
        Instant now = clock.instant();
        boolean enabled = subjects.findById(request.actor().subject()).map(Subject::enabled).orElse(false);
        if (to == WriteStatus.APPROVED && request.statusAt(now) == WriteStatus.PENDING
                && !(enabled && asking.canRun(request.actor()))) {
            throw Message.WRITE_CANNOT_RUN.refusal();
        }
        transactions.inTransaction(() -> {
            if (!store.decide(id, to, now, by.login().value())) {
                throw notDecidable(store.findById(id).orElseThrow(), now);
            }
            Subject asking = subjects.findById(request.actor().subject()).orElseThrow();
            events.event(type).actor(by).target(asking)
                    .details(Map.of("request", id, "cluster", request.cluster().value(), "namespace",
                            request.namespace(), "tool", request.tool(), "verb", request.verb(), "resource",
                            request.resource(), "name", request.name()))
                    // Whose agent asked, so the event reads "the bot deploybot", not "an agent of".
                    .detail("requester", asking.kind() == SubjectKind.BOT ? "bot" : "person")
                    .record();
            return null;
        });
        // After commit: a waiter woken now reads the decision (spec 3 §4: it runs at once).
        signals.announce(id);
        return store.findById(id).orElseThrow();
    }

    static RuntimeException notDecidable(WriteRequest request, Instant now) {
        return request.statusAt(now) == WriteStatus.EXPIRED
                ? Message.REQUEST_EXPIRED.refusal() : Message.REQUEST_NOT_PENDING.refusal();
    }

    /** Releases every wait (each returns its request as it stands) and stops hearing decisions. */
    @Override
    public void close() {
        waiters.close();
        signals.close();
    }
}
