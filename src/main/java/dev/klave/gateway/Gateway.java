package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditRow.Actor;
import dev.klave.audit.AuditWriter;
import dev.klave.cluster.ClusterId;
import dev.klave.logs.LogFields;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.storage.DatabaseUnavailableException;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admission of a call to a cluster, for every way in (spec 1 §5 "Credentials at the proxy",
 * §1.3): the bearer token is checked (credential → owner → cluster → grant), the audit row is
 * durable, and only then is the call admitted. A refused call whose credential is known leaves a
 * completed row naming it, so its owner sees it too.
 *
 * <p>The remembered fast path: when a check of this token on this cluster is kept in memory
 * ({@link CredentialChecks#remembered}), nothing is queried and no thread is woken for it. The
 * row is written first, and the access generation as of its commit (AuditStore.write) says whether
 * the kept check still held at that moment on every replica; if access changed, the full check
 * decides on a virtual thread, and a refusal completes the row already written. Either way the
 * call is admitted only after both.
 */
public final class Gateway implements Admissions {
    private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

    private final CredentialChecks checks;
    private final AuditWriter audit;
    private final OpenCalls streams;
    private final Executor blocking;
    private final Clock clock;

    /** @param blocking runs the full checks (virtual threads) */
    public Gateway(CredentialChecks checks, AuditWriter audit, OpenCalls streams, Executor blocking, Clock clock) {
        this.checks = requireNonNull(checks, "checks is null");
        this.audit = requireNonNull(audit, "audit is null");
        this.streams = requireNonNull(streams, "streams is null");
        this.blocking = requireNonNull(blocking, "blocking is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** The handle that will end the call under {@code auditId}, made before it is admitted. */
    public Ending ending(String auditId) {
        return new Ending(auditId, streams, audit::complete, clock);
    }

    /** As {@link #ending(String)}, telling {@code observer} the status the call ends with (metrics). */
    public Ending ending(String auditId, IntConsumer observer) {
        return new Ending(auditId, streams, audit::complete, clock, observer);
    }

    /** The open calls of this replica, cut on revocation and at shutdown. */
    @Override
    public OpenCalls streams() {
        return streams;
    }

    /** The credential checks (for the rows of calls refused before admission). */
    public CredentialChecks checks() {
        return checks;
    }

    /**
     * Admits a call of a bearer its edge resolved (issue 52: every way in resolves its bearer at
     * its edge, {@link BearerResolver}), or refuses it; completes once its row is durable (or could
     * not be, which refuses it). Completes on the audit writer's thread for a remembered check, on
     * a virtual thread otherwise; never exceptionally.
     */
    @Override
    public CompletableFuture<Admission> admit(Ending ending, Resolved resolved, Call call) {
        Optional<Caller> remembered = checks.remembered(resolved.bearer(), call.cluster());
        if (remembered.isPresent()) {
            return admitRemembered(ending, call, remembered.get(), () -> checks.admit(resolved, call.cluster()));
        }
        return CompletableFuture.supplyAsync(() -> admitChecked(ending, call,
                found -> checks.admit(resolved, call.cluster(), found)), blocking);
    }

    /**
     * As {@link #admit(Ending, Resolved, Call)} for a bearer its edge resolved for the whole of a
     * longer exchange (an agent's tool call, resolved once at {@code /mcp}): a full check reads it
     * again by its id, since it may have been revoked or ended since.
     */
    @Override
    public CompletableFuture<Admission> admit(Ending ending, Bearer bearer, Call call) {
        return admit(ending, new Resolved(bearer, generation -> checks.bearer(bearer.id())), call);
    }

    /**
     * As {@link #admit(Ending, Resolved, Call)} for a bearer its edge resolves only now, on the
     * gateway's thread ({@code resolve} looks it up given the access generation read first, and
     * refuses a missing or unknown token): a refusal before it is known leaves a row without a
     * bearer (spec 1 §1.3).
     */
    @Override
    public CompletableFuture<Admission> admit(Ending ending, LongFunction<Bearer> resolve, Call call) {
        return CompletableFuture.supplyAsync(() -> admitChecked(ending, call,
                found -> checks.admit(resolve, call.cluster(), found)), blocking);
    }

    private CompletableFuture<Admission> admitRemembered(Ending ending, Call call, Caller caller,
            Supplier<Caller> fullCheck) {
        String auditId = ending.auditId();
        return audit.record(admittedRow(auditId, call, caller)).handle((generation, failure) -> {
            if (failure != null) {
                auditFailed(auditId, failure);
                return CompletableFuture.<Admission>completedFuture(refused(Message.AUDIT_UNAVAILABLE.refusal()));
            }
            checks.observed(generation);
            if (generation == caller.generation()) {
                return CompletableFuture.<Admission>completedFuture(admitted(ending, call, caller));
            }
            return CompletableFuture.supplyAsync(() -> recheck(ending, call, fullCheck), blocking);
        }).thenCompose(admission -> admission);
    }

    /** The full check of a call whose row is already written; a refusal completes that row. */
    private Admission recheck(Ending ending, Call call, Supplier<Caller> fullCheck) {
        String auditId = ending.auditId();
        Refusal refusal;
        try {
            return admitted(ending, call, fullCheck.get());
        } catch (Refusal refused) {
            refusal = refused;
        } catch (RuntimeException e) {
            refusal = unexpected(auditId, e);
        }
        audit.complete(new AuditRow.Completion(auditId, refusal.status(), Optional.of(refusal.getMessage()),
                clock.instant(), authentication(refusal) ? AuditRow.Completion.Kind.REFUSED
                        : AuditRow.Completion.Kind.ENDED));
        return refused(refusal);
    }

    /**
     * Checks the bearer and writes the audit row before anything is forwarded. A refused call
     * leaves a completed row when its bearer is known, so an owner sees it too.
     *
     * @param check the full check, telling the bearer it found as soon as it is known
     */
    private Admission admitChecked(Ending ending, Call call, Function<Consumer<Bearer>, Caller> check) {
        String auditId = ending.auditId();
        AtomicReference<Bearer> known = new AtomicReference<>();
        try {
            Caller caller = check.apply(known::set);
            try {
                checks.observed(awaitRow(admittedRow(auditId, call, caller)));
            } catch (Exception e) {
                auditFailed(auditId, e);
                return refused(Message.AUDIT_UNAVAILABLE.refusal());
            }
            return admitted(ending, call, caller);
        } catch (Refusal refusal) {
            Optional<Bearer> bearer = Optional.ofNullable(known.get());
            // Authentication failures are recorded too; they have no resource, like discovery (spec 1
            // §2 "Audit row"). Any other refusal — no active grant, another cluster's credential —
            // names what was asked, and listings show it (issue 51 §16). The answer waits for the
            // row, so the Audit-ID it carries is found (spec 1 §1.3).
            RequestInfo info = call.info();
            try {
                RequestInfo recorded = authentication(refusal) ? new RequestInfo(info.verb(), Optional.empty(),
                        info.namespace(), info.name()) : info;
                Actor actor = new Actor(bearer.map(found -> found.owner().value()),
                        bearer.flatMap(checks::ownerLogin), bearer.map(Bearer::id), clientIp(call));
                awaitRow(row(auditId, call, recorded, actor).ended(new AuditRow.Outcome(refusal.status(),
                        Optional.of(refusal.getMessage()), clock.instant())));
            } catch (Exception e) {
                LOG.atWarn().addKeyValue(LogFields.AUDIT_ID, auditId)
                        .log("audit row {} of a refused request not written: {}", auditId, e.toString());
            }
            return refused(refusal);
        } catch (RuntimeException e) {
            return refused(unexpected(auditId, e));
        }
    }

    /**
     * The full check of {@code bearer} on {@code cluster} now, for a wait that is no call (a tool
     * waiting for a person's approval, {@link CallChain#hold}).
     *
     * @throws Refusal when the bearer may not act on the cluster now
     */
    @Override
    public Caller check(Bearer bearer, ClusterId cluster) {
        return checks.admit(Resolved.fresh(bearer), cluster);
    }


    /** The call admitted, for the {@link CallChain} to carry. */
    private Admission admitted(Ending ending, Call call, Caller caller) {
        return new Admission.Admitted(new Carried(ending.auditId(), call, caller, ending, streams));
    }

    private static Admission refused(Refusal refusal) {
        return new Admission.Refused(refusal);
    }

    /**
     * Waits, on a virtual thread, for a row to be durable ({@link AuditWriter#record} bounds the
     * wait); an interrupt (the replica stopping) ends the wait and is kept for the caller's thread.
     */
    private long awaitRow(AuditRow row) throws Exception {
        try {
            return audit.record(row).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw e;
        }
    }

    /**
     * The row of an admitted call was not durable in time, or failed: the call is refused (503)
     * and not forwarded. Its completion is queued too, so that a row written late still says what
     * the client got.
     */
    private void auditFailed(String auditId, Throwable failure) {
        Throwable cause = failure instanceof ExecutionException ? failure.getCause() : failure;
        LOG.atError().addKeyValue(LogFields.AUDIT_ID, auditId)
                .log("audit row {} not written; request refused: {}", auditId, String.valueOf(cause));
        Message refused = Message.AUDIT_UNAVAILABLE;
        audit.complete(new AuditRow.Completion(auditId, refused.status(), Optional.of(refused.text()),
                clock.instant()));
    }

    /** A check that could not be made: the database is down (spec 1 §7: 503), or anything else (500). */
    private static Refusal unexpected(String auditId, RuntimeException e) {
        if (e instanceof DatabaseUnavailableException) {
            LOG.atWarn().addKeyValue(LogFields.AUDIT_ID, auditId).log("admission of {}: {}", auditId, e.getMessage());
            return Message.DATABASE_UNAVAILABLE.refusal();
        }
        LOG.atError().addKeyValue(LogFields.AUDIT_ID, auditId).setCause(e).log("admission failed for {}", auditId);
        return Message.INTERNAL_ERROR.refusal();
    }

    /** A refusal of who is asking (no token, an unknown, revoked or expired one), not of what they ask. */
    private static boolean authentication(Refusal refusal) {
        return refusal.status() == 401;
    }

    /** The row of a call whose credential passed, written before it is forwarded. */
    private AuditRow admittedRow(String auditId, Call call, Caller caller) {
        return row(auditId, call, call.info(), new Actor(Optional.of(caller.subject().id().value()),
                Optional.of(caller.subject().login().value()), Optional.of(caller.bearer().id()), clientIp(call)));
    }

    private AuditRow row(String auditId, Call call, RequestInfo info, Actor actor) {
        return AuditRow.opened(auditId, clock.instant(), actor, call.cluster().value(), new AuditRow.Request(
                info.verb(), info.namespace(), info.resource(), info.name(), call.path().encoded(), call.channel(),
                call.query().dryRun() ? AuditRow.DryRun.ALL : AuditRow.DryRun.NO));
    }

    private static Optional<String> clientIp(Call call) {
        return Optional.of(call.client().getHostAddress());
    }
}
