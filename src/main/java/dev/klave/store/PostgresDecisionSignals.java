package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.agent.approval.DecisionSignals;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decisions announced to every replica through PostgreSQL's {@code LISTEN/NOTIFY}: one listener
 * thread per replica, on a connection of its own. An announcement reaches this replica's waiters
 * at once as well, so a listener reconnecting after a failure delays only other replicas' waiters,
 * and those read their request again on their own schedule meanwhile.
 */
public final class PostgresDecisionSignals implements DecisionSignals {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresDecisionSignals.class);
    static final String CHANNEL = "klave_decisions";
    /** How long one wait for notifications lasts: the bound on noticing {@link #close()}. */
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration RECONNECT = Duration.ofSeconds(1);

    private final Database database;
    private volatile Consumer<String> heard = id -> {};
    private volatile boolean closed;
    private Thread listener;

    public PostgresDecisionSignals(Database database) {
        this.database = requireNonNull(database, "database is null");
        if (database.dialect() != Dialect.POSTGRES) {
            throw new IllegalArgumentException("LISTEN/NOTIFY is PostgreSQL's");
        }
    }

    /** The signals of {@code database}'s dialect: over PostgreSQL, or in process for SQLite (one process). */
    public static DecisionSignals of(Database database) {
        return database.dialect() == Dialect.POSTGRES ? new PostgresDecisionSignals(database)
                : DecisionSignals.inProcess();
    }

    @Override
    public void announce(String id) {
        heard.accept(id);
        try {
            database.withHandle(handle -> handle.createQuery("SELECT pg_notify(:channel, :id)")
                    .bind("channel", CHANNEL)
                    .bind("id", id)
                    .mapTo(String.class)
                    .findOne());
        } catch (RuntimeException e) {
            // The decision is committed; other replicas' waiters find it when they read again.
            LOG.warn("could not announce the decision on {} to other replicas: {}", id, e.getMessage());
        }
    }

    @Override
    public synchronized void start(Consumer<String> listener) {
        if (this.listener != null) {
            throw new IllegalStateException("already started");
        }
        heard = requireNonNull(listener, "listener is null");
        this.listener = Thread.ofPlatform().name("klave-decisions").daemon().start(this::listen);
    }

    private void listen() {
        while (!closed) {
            try (Connection connection = database.dedicatedConnection()) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN " + CHANNEL);
                }
                PGConnection notifications = connection.unwrap(PGConnection.class);
                while (!closed) {
                    PGNotification[] received = notifications.getNotifications((int) POLL.toMillis());
                    if (received != null) {
                        for (PGNotification notification : received) {
                            heard.accept(notification.getParameter());
                        }
                    }
                }
            } catch (SQLException e) {
                if (closed) {
                    return;
                }
                LOG.warn("listening for decisions failed, again in {}: {}", RECONNECT, Database.rootMessage(e));
                try {
                    Thread.sleep(RECONNECT);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        heard = id -> {};
        Thread running;
        synchronized (this) {
            running = listener;
        }
        if (running == null) {
            return;
        }
        running.interrupt();
        try {
            running.join(Duration.ofSeconds(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
