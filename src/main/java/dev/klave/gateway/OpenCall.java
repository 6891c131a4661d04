package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.BootstrapSecrets;
import dev.klave.kube.ClusterUri;
import dev.klave.kube.Query;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One call the gateway admitted, its audit row durable, on its way through a transport (the
 * proxy's forwarding, an upgrade's splice, a tool's exchange). The call's contract is kept here,
 * whichever transport carries it, so that no transport can forget a rule:
 *
 * <ol>
 *   <li>it is registered with the stream guard before any byte can leave: its target and its
 *       impersonation are given out only once it is ({@link #register}), so a revocation, a grant
 *       that ends or the replica stopping reaches every call that left;
 *   <li>a call Klave means as a preview leaves only as a dry run ({@link Call#preview()}, checked
 *       again on its target);
 *   <li>it ends once: the first ending — an answer, a cut, the client leaving — is the one its row
 *       records ({@link Ending}).
 * </ol>
 */
public final class OpenCall {
    private final String auditId;
    private final Call call;
    private final Caller caller;
    private final Ending ending;
    private final OpenCalls streams;
    private final AtomicBoolean registered = new AtomicBoolean();

    OpenCall(String auditId, Call call, Caller caller, Ending ending, OpenCalls streams) {
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

    /** The cluster's address and CA, pinned: where the transport connects. */
    public BootstrapSecrets cluster() {
        return caller.cluster();
    }

    /**
     * Holds the call open under the stream guard until it ends or {@link #answered()}: {@code cut}
     * ends it, once, for the reason given. Called again, it replaces the cut (the proxy's watch,
     * once its answer began, is cut differently).
     */
    public void register(Consumer<CutReason> cut) {
        requireNonNull(cut, "cut is null");
        registered.set(true);
        streams.open(auditId, caller, call.cluster(), cut);
    }

    /**
     * The answer has come whole, or the call needs no cut any more: it leaves the stream guard.
     * Its row is ended by {@link #end}.
     */
    public void answered() {
        streams.closed(auditId);
    }

    /**
     * The request target to send: the path and query, each encoded once.
     *
     * @throws IllegalStateException before {@link #register}, or for a preview that is not a dry run
     */
    public String target() {
        requireRegistered();
        if (call.preview() && !call.query().dryRun()) {
            throw new IllegalStateException("a preview leaves only as a dry run (dryRun=All)");
        }
        return call.target();
    }

    /**
     * The whole URI to send, on the cluster's registered address ({@link ClusterUri}); read back,
     * a preview's must carry {@code dryRun=All} on the wire.
     *
     * @throws IllegalStateException before {@link #register}, or for a preview that is not a dry run
     */
    public URI uri() {
        target();
        URI uri = ClusterUri.of(caller.cluster().server(), call.path(), call.query());
        if (call.preview() && !Query.parse(uri.getRawQuery() == null ? "" : uri.getRawQuery()).dryRun()) {
            throw new IllegalStateException("a preview without dryRun=All on the wire");
        }
        return uri;
    }

    /**
     * The headers that make the cluster act as the caller ({@link Impersonation}).
     *
     * @throws IllegalStateException before {@link #register}
     */
    public List<Map.Entry<String, String>> impersonation() {
        requireRegistered();
        return Impersonation.headers(caller);
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

    private void requireRegistered() {
        if (!registered.get()) {
            throw new IllegalStateException("a call leaves only registered with the stream guard");
        }
    }
}
