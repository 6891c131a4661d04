package dev.klave.recording;

import dev.klave.messages.Text;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;

/** A recorded session's tap: what the relay forwards goes to the recorder's mailbox. */
final class RecordedTap implements Tap {
    private final Mailbox mailbox;
    private final Runnable ended;
    /** What of the cluster's may reach the client: the cap under required (issue 51 §14). */
    private final long budget;
    /** Where the cluster's WebSocket messages end (required, WebSocket); null where nobody asks. */
    private final FrameEnds ends;
    /** The cluster's bytes relayed so far; only the relay's thread of that direction reads and adds. */
    private long relayed;
    /** Once past the budget, nothing more is relayed. */
    private boolean capped;
    /** The one ending: the relay tells the end once per direction, both must wait for it. */
    private final AtomicReference<CompletableFuture<Optional<String>>> ending = new AtomicReference<>();

    /** @param ended told once, when the session ends (its recorder is no longer live) */
    RecordedTap(Mailbox mailbox, long budget, FrameEnds ends, Runnable ended) {
        this.ended = ended;
        this.mailbox = mailbox;
        this.budget = budget;
        this.ends = ends;
    }

    @Override
    public boolean wanted() {
        return mailbox.wanted() || budget < Long.MAX_VALUE && !capped;
    }

    @Override
    public int fromCluster(byte[] bytes) {
        if (capped) {
            return 0;
        }
        int passed;
        if (ends != null) {
            passed = ends.within(bytes, budget);
        } else {
            passed = relayed + bytes.length <= budget ? bytes.length : 0;
        }
        capped = passed < bytes.length;
        relayed += passed;
        // What reaches the client reaches the recorder first; then, past the cap, its end.
        if (passed > 0 && mailbox.wanted()) {
            mailbox.post(false, passed == bytes.length ? bytes : Arrays.copyOf(bytes, passed));
        }
        if (capped) {
            mailbox.capped();
        }
        return passed;
    }

    @Override
    public boolean atMessageEnd() {
        return ends != null && ends.passedToEnd();
    }

    @Override
    public void fromClient(byte[] bytes) {
        if (mailbox.wanted()) {
            mailbox.post(true, bytes);
        }
    }

    @Override
    public CompletionStage<Optional<String>> end(Optional<String> cut) {
        CompletableFuture<Optional<String>> mine = new CompletableFuture<>();
        if (!ending.compareAndSet(null, mine)) {
            return ending.get();
        }
        ended.run();
        mailbox.end(cut).whenComplete((why, failure) -> mine.complete(failure == null ? why
                : Optional.of(Text.RECORDING_UNREADABLE.text())));
        return mine;
    }
}
