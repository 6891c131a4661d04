package dev.klave.recording;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Both directions of a session, as relayed, and its end: what the relay shows the recording
 * (issues 42 and 51). A recorded session's is a {@link RecordedTap}; a session not recorded has
 * {@link #NOTHING}, or one that says why ({@link #unrecorded}).
 */
public interface Tap {
    /**
     * Whether the relay still needs to show this session's bytes: a recording stopped at its cap
     * (a `cat` of a big file: most of the stream) costs the relay nothing more where recording
     * is on; where it is required, the cluster's bytes are counted against the cap until it.
     */
    default boolean wanted() {
        return true;
    }

    /**
     * Takes the cluster's next bytes for the recording and says how many of them may reach the
     * client (issue 51 §14): all, except under {@code required} past the session's cap — then
     * only up to the last whole WebSocket message within it; the recording ends truncated and the
     * relay must stop there and end the session.
     */
    int fromCluster(byte[] bytes);

    void fromClient(byte[] bytes);

    /**
     * Whether what reached the client so far ends on a whole WebSocket message, so that a
     * message saying why the session ends can follow it (tracked where recording is required).
     */
    default boolean atMessageEnd() {
        return false;
    }

    /**
     * The session ended; the recording ends once the recorder has read what was relayed.
     * @return why the recording is not whole, for the audit row (empty when it is), on a recorder thread
     */
    CompletionStage<Optional<String>> end(Optional<String> cut);

    /** The tap of a session not recorded: it takes nothing. */
    Tap NOTHING = new Tap() {
        @Override
        public boolean wanted() {
            return false;
        }

        @Override
        public int fromCluster(byte[] bytes) {
            return bytes.length;
        }

        @Override
        public void fromClient(byte[] bytes) {}

        @Override
        public CompletionStage<Optional<String>> end(Optional<String> cut) {
            return Ended.NOTHING_MISSING;
        }
    };

    /** A session recorded not at all, and why: the relay copies nothing for it. */
    static Tap unrecorded(String why) {
        CompletionStage<Optional<String>> ended = CompletableFuture.completedFuture(Optional.of(why));
        return new Tap() {
            @Override
            public boolean wanted() {
                return false;
            }

            @Override
            public int fromCluster(byte[] bytes) {
                return bytes.length;
            }

            @Override
            public void fromClient(byte[] bytes) {}

            @Override
            public CompletionStage<Optional<String>> end(Optional<String> cut) {
                return ended;
            }
        };
    }

    /** A recording's end that found it whole, made once. */
    final class Ended {
        static final CompletionStage<Optional<String>> NOTHING_MISSING =
                CompletableFuture.completedFuture(Optional.empty());

        private Ended() {}
    }
}
