package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.BootstrapSecrets;
import java.util.Optional;

/**
 * A call the gateway admitted — its audit row durable — as its transport holds it (issue 52): what
 * the call is and who makes it, and the only things a transport does to it — say the cut no longer
 * applies ({@link #answered}), give up places it held when it ends ({@link #holding}), and end it
 * ({@link #end}). The {@link CallChain} did the rest before the transport saw it: registered with
 * the stream guard before any byte could leave, the one wire request built, a preview only as a dry
 * run. The first ending — an answer, a cut, the client leaving — is the one its row records; the
 * chain knows every call that has not ended, so one that never does fails its test.
 */
public final class Carried {
    private final String auditId;
    private final Call call;
    private final Caller caller;
    private final Ending ending;
    private final OpenCalls streams;

    Carried(String auditId, Call call, Caller caller, Ending ending, OpenCalls streams) {
        this.auditId = requireNonNull(auditId, "auditId is null");
        this.call = requireNonNull(call, "call is null");
        this.caller = requireNonNull(caller, "caller is null");
        this.ending = requireNonNull(ending, "ending is null");
        this.streams = requireNonNull(streams, "streams is null");
    }

    public String auditId() {
        return auditId;
    }

    public Call call() {
        return call;
    }

    public Caller caller() {
        return caller;
    }

    /** The bearer the call was admitted as. */
    public Bearer bearer() {
        return caller.bearer();
    }

    /** The cluster's address and CA, pinned. */
    public BootstrapSecrets cluster() {
        return caller.cluster();
    }

    /**
     * The answer has come whole, or the call needs no cut any more: it leaves the stream guard.
     * Its row is ended by {@link #end}.
     */
    public void answered() {
        streams.closed(auditId);
    }

    /** Ends the call and completes its row, unless it ended already; leaves the stream guard. */
    public void end(int status, Optional<String> error) {
        ending.end(status, error);
    }

    /** Ends the call for a cut of the stream guard's: its row says why. */
    public void end(int status, CutReason reason) {
        ending.end(status, Optional.of(reason.text()));
    }

    public boolean ended() {
        return ending.ended();
    }

    /** Gives {@code place} up when the call ends (a share of its credential's requests, a pool's count). */
    public void holding(Runnable place) {
        ending.holding(place);
    }

    /** Registered with the stream guard, {@code cut} told of a cut: the chain's step, before any byte leaves. */
    void register(java.util.function.Consumer<CutReason> cut) {
        streams.open(auditId, caller, call.cluster(), cut);
    }
}
