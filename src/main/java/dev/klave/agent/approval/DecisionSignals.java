package dev.klave.agent.approval;

import java.util.function.Consumer;

/**
 * Where a decision on a write request is announced and heard, on every replica at once (spec 3 §4
 * "Write approval flow" 3: the waiting call runs the write on approval). Announcing is a wake-up
 * only: a waiter reads the request again, so a lost or repeated announcement costs time, never a
 * wrong answer.
 */
public interface DecisionSignals extends AutoCloseable {
    /** Tells every replica, this one included, that request {@code id} was decided; after commit. */
    void announce(String id);

    /** Starts handing every announcement, from any replica, to {@code heard}; a thread at most. */
    void start(Consumer<String> heard);

    /** Stops hearing; announcing afterwards is harmless. */
    @Override
    void close();

    /** One process (SQLite): an announcement goes straight to this process's waiters. */
    static DecisionSignals inProcess() {
        return new DecisionSignals() {
            private volatile Consumer<String> heard = id -> {};

            @Override
            public void announce(String id) {
                heard.accept(id);
            }

            @Override
            public void start(Consumer<String> listener) {
                heard = listener;
            }

            @Override
            public void close() {
                heard = id -> {};
            }
        };
    }
}
