package dev.klave.gateway;

import dev.klave.cluster.ClusterId;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;

/**
 * What the {@link CallChain} asks of admission: the {@link Gateway}'s checks and audit row, or a
 * test's own (the chain's contract is tested with a testing transport, without Klave).
 */
interface Admissions {
    CompletableFuture<Admission> admit(Ending ending, Resolved resolved, Call call);

    CompletableFuture<Admission> admit(Ending ending, LongFunction<Bearer> resolve, Call call);

    CompletableFuture<Admission> admit(Ending ending, Bearer bearer, Call call);

    /** The full check of a bearer on a cluster now, for a wait that is no call. */
    Caller check(Bearer bearer, ClusterId cluster);

    /** The replica's open calls, which a cut reaches. */
    OpenCalls streams();
}
