package dev.klave.gateway;

import dev.klave.messages.Refusal;
import java.util.concurrent.Executor;

/**
 * What carries a call to its cluster (issue 52): the proxy's forwarding, an upgrade's splice, the
 * tools' exchange. A transport implements this and nothing else of the call's contract: the
 * {@link CallChain} admits the call, writes its row, registers it with the stream guard and builds
 * the one request that may leave ({@link Wire}), then hands it over; the transport says how it
 * went through the {@link Carried} handle, whose every call it may make in any order — the chain
 * keeps the rules.
 */
public interface Transport {
    /** Where the chain runs this transport's steps: the proxy's event loop, say. The calling thread by default. */
    default Executor executor() {
        return Runnable::run;
    }

    /** The call was refused before it was admitted (its row says why): answer the client. */
    void refused(Refusal refusal);

    /**
     * Sends {@code wire} — the call registered with the stream guard, its URI and the caller's
     * impersonation built once — and ends the call through {@code call} when it is over.
     */
    void send(Wire wire, Carried call);

    /**
     * The stream guard cut the call (its bearer revoked, its grant gone, the replica stopping): stop
     * it and end it through {@code call}, with what the client is told. Runs on {@link #executor()}.
     */
    void cut(CutReason reason, Carried call);
}
