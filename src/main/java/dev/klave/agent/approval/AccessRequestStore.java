package dev.klave.agent.approval;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Storage of access requests, agents' and people's alike (one queue). Every change of state is
 * conditional on the state it leaves: each request is decided, cancelled, expired or ended once, on
 * any replica.
 */
public interface AccessRequestStore {
    /** @throws dev.klave.storage.AlreadyExistsException when the id is taken */
    void create(AccessRequest request);

    Optional<AccessRequest> findById(String id);

    /**
     * The request, its row held until the transaction ends: a decision on another replica (or
     * thread) waits for this one and then reads what it left (issue 51 §19: two first approvals at
     * once are two approvals). Inside a transaction only.
     */
    Optional<AccessRequest> lock(String id);

    /**
     * Pending and unexpired at {@code at} → approved, naming the grant it became; false when the
     * request is not pending any more, has run out, or does not exist. How many approvals it
     * needed, and whether they are there, the caller decided under {@link #lock}.
     */
    boolean approve(String id, Instant at, String by, Optional<String> comment, String grantId,
            Instant grantExpiresAt);

    /**
     * An approval that is the first of two: pending and unexpired → needing two, with this one as its
     * first (replacing a first approval that no longer counts).
     */
    boolean recordFirst(String id, Instant at, String by, Optional<String> comment);

    /**
     * Pending and unexpired at {@code at} → withdrawn by Klave, {@code why} as its comment: what it
     * asked for no longer stands (its requester disabled, its eligible grant revoked).
     */
    boolean withdraw(String id, Instant at, String why);

    /** A subject's pending requests, agents' included. */
    List<AccessRequest> pendingOf(SubjectId subject, Instant now);

    /** The pending activations of an eligible grant. */
    List<AccessRequest> pendingActivations(String eligibleId, Instant now);

    /** A subject's approved requests whose grant (made by the request, not lent) still runs at {@code now}. */
    List<AccessRequest> grantedRunning(SubjectId subject, Instant now);

    /** Pending and unexpired at {@code at} → denied; false as for {@link #approve}. */
    boolean deny(String id, Instant at, String by, Optional<String> comment);

    /** Pending and unexpired at {@code at} → cancelled by its requester. */
    boolean cancel(String id, Instant at, String by);

    /**
     * Approved, not yet ended and running at {@code at} → ended then ({@code by}: who ended it
     * early); or, with {@code by} empty, approved and not yet ended whose access ran out by {@code
     * at} → ended at its own end, or whose grant was revoked → ended now.
     */
    boolean end(String id, Instant at, Optional<String> by);

    /** Pending requests that ran out by {@code now}, oldest first, at most {@code limit}. */
    List<AccessRequest> runOut(Instant now, int limit);

    /** Pending and run out at {@code now} → expired (stored, for the event; it already read as expired). */
    boolean expire(String id, Instant now);

    /** Approved requests whose access reached its end by {@code now}, or whose grant was revoked, and whose end is not recorded. */
    List<AccessRequest> reachedEnd(Instant now, int limit);

    /**
     * Approved requests not ended whose access ends after {@code now} and by {@code until}, not yet
     * told: the holder is told ahead (issue 41 §2).
     */
    List<AccessRequest> endingBy(Instant now, Instant until, int limit);

    /** Records that the holder was told of the coming end; false when it already was. */
    boolean toldEnding(String id, Instant at);

    /**
     * The approved requests of the actor's subject (and of its session, when it has one) whose
     * grant runs at {@code now}: unexpired, not revoked, not ended early. Oldest first.
     */
    List<AccessRequest> inForce(Actor actor, Instant now);

    /** As {@link WriteRequestStore#forDecider}: pending and unexpired first, then the rest, newest first. */
    List<AccessRequest> forDecider(Optional<SubjectId> decider, Instant now, int limit);

    /** As {@link #forDecider} for requests with no single decider on these clusters (their named deciders'). */
    List<AccessRequest> onClusters(Collection<ClusterId> clusters, Instant now, int limit);

    /** A person's own requests and activations (not their agents'), newest first. */
    List<AccessRequest> askedBy(SubjectId subject, int limit);

    /** A person's own requests and activations on one cluster, newest first: what a decider sees beside one. */
    List<AccessRequest> askedBy(SubjectId subject, ClusterId cluster, int limit);

    /**
     * The approved request (a person's, a bot's; not a delegated session's lend) whose access ran
     * for {@code subject} on {@code cluster} at {@code at}: the link from an audit row to it.
     */
    Optional<AccessRequest> coveringAt(SubjectId subject, ClusterId cluster, Instant at);

    /** The request each of these grants came from, if any (not lent access: a bot's or a person's own). */
    List<AccessRequest> madeGrants(Collection<String> grantIds);
}
