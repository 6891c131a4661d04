package dev.klave.agent.approval;

import dev.klave.account.SubjectId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Storage of write requests. Every change of state is conditional, so each happens once across replicas. */
public interface WriteRequestStore {
    /** @throws dev.klave.storage.AlreadyExistsException when the id is taken */
    void create(WriteRequest request);

    Optional<WriteRequest> findById(String id);

    /**
     * Holds, until the transaction ends, every other transaction that locks the same subject: so
     * counting an account's requests and adding one is a single step across replicas.
     */
    void lockSubject(SubjectId subject);

    /** The pending request of exactly this actor with these arguments, unexpired at {@code now}. */
    Optional<WriteRequest> findPending(Actor actor, String argumentsHash, Instant now);

    /** How many requests of the subject are pending and unexpired at {@code now}. */
    int countPending(SubjectId subject, Instant now);

    /**
     * Pending and unexpired at {@code at} → {@code to} (approved or denied), with when and by whom;
     * false when the request is not pending any more, has run out, or does not exist.
     */
    boolean decide(String id, WriteStatus to, Instant at, String by);

    /** Approved → executed; false when it is not approved (someone ran it, or it never was). */
    boolean markExecuted(String id, Instant at);

    /**
     * The requests {@code decider} decides (empty: those of bots, which administrators decide):
     * those pending and unexpired at {@code now} first, then the rest, each part newest first.
     */
    List<WriteRequest> forDecider(Optional<SubjectId> decider, Instant now, int limit);
}
