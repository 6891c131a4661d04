package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.notify.Kind;
import dev.klave.notify.Outbox;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * {@link Outbox} in SQL: claims are conditional updates, so two replicas never send one row within
 * one claim.
 */
public final class JdbiOutbox implements Outbox {
    private static final String COLUMNS = "id, channel, destination_id, target, kind, event_key, payload, created_at, "
            + "attempts, next_attempt_at, delivered_at, gave_up_at, last_status, last_error";

    /** Due at :now and free: not delivered, not given up, not claimed by a replica still within its claim. */
    private static final String DUE = "delivered_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= :now "
            + "AND (claimed_until IS NULL OR claimed_until <= :now)";

    private final Database database;

    public JdbiOutbox(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public boolean add(Row row) {
        // ON CONFLICT DO NOTHING (PostgreSQL; SQLite since 3.24): a second row for the same event
        // and target is dropped without failing — nor aborting — the caller's transaction.
        return database.write(handle -> handle.createUpdate("INSERT INTO notify_outbox (" + COLUMNS + ") VALUES "
                        + "(:id, :channel, :destination_id, :target, :kind, :event_key, :payload, :created_at, "
                        + ":attempts, :next_attempt_at, NULL, NULL, NULL, NULL) "
                        + "ON CONFLICT (channel, target, event_key) DO NOTHING")
                .bind("id", row.id())
                .bind("channel", row.channel().code())
                .bind("destination_id", row.destinationId().orElse(null))
                .bind("target", row.target())
                .bind("kind", row.kind().code())
                .bind("event_key", row.key())
                .bind("payload", row.payload())
                .bind("created_at", row.createdAt().toEpochMilli())
                .bind("attempts", row.attempts())
                .bind("next_attempt_at", row.nextAttemptAt().toEpochMilli())
                .execute()) == 1;
    }

    @Override
    public List<Lane> due(Instant now, int limit) {
        return database.withHandle(handle -> handle.createQuery("SELECT DISTINCT channel, destination_id "
                        + "FROM notify_outbox WHERE " + DUE + " LIMIT :limit")
                .bind("now", now.toEpochMilli())
                .bind("limit", limit)
                .map((row, context) -> new Lane(Channel.parse(row.getString("channel")),
                        Optional.ofNullable(row.getString("destination_id"))))
                .list());
    }

    @Override
    public Optional<Row> claim(Lane lane, Instant now, Instant until) {
        String inLane = lane.destinationId().isPresent() ? "channel = :channel AND destination_id = :destination"
                : "channel = :channel";
        // A few candidates at a time: another replica may take the first between the read and the update.
        for (int round = 0; round < 3; round++) {
            List<Row> due = database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS
                            + " FROM notify_outbox WHERE " + inLane + " AND " + DUE
                            + " ORDER BY next_attempt_at, created_at, id LIMIT 4")
                    .bind("channel", lane.channel().code())
                    .bind("destination", lane.destinationId().orElse(null))
                    .bind("now", now.toEpochMilli())
                    .map(JdbiOutbox::map)
                    .list());
            if (due.isEmpty()) {
                return Optional.empty();
            }
            for (Row row : due) {
                int taken = database.write(handle -> handle.createUpdate("UPDATE notify_outbox SET "
                                + "claimed_until = :until WHERE id = :id AND " + DUE)
                        .bind("id", row.id())
                        .bind("now", now.toEpochMilli())
                        .bind("until", until.toEpochMilli())
                        .execute());
                if (taken == 1) {
                    return Optional.of(row);
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public void delivered(String id, Instant at, int status) {
        database.write(handle -> handle.createUpdate("UPDATE notify_outbox SET delivered_at = :at, "
                        + "last_status = :status, last_error = NULL, attempts = attempts + 1, claimed_until = NULL "
                        + "WHERE id = :id")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("status", status)
                .execute());
    }

    @Override
    public void failed(String id, Instant at, Optional<Integer> status, String error, Optional<Instant> next) {
        database.write(handle -> handle.createUpdate("UPDATE notify_outbox SET attempts = attempts + 1, "
                        + "last_status = :status, last_error = :error, claimed_until = NULL, "
                        + "next_attempt_at = COALESCE(:next, next_attempt_at), gave_up_at = :gave_up WHERE id = :id "
                        + "AND delivered_at IS NULL")
                .bind("id", id)
                .bind("status", status.orElse(null))
                .bind("error", error.length() > 500 ? error.substring(0, 500) : error)
                .bind("next", Times.toMillis(next))
                .bind("gave_up", next.isPresent() ? null : at.toEpochMilli())
                .execute());
    }

    @Override
    public List<Row> ofDestination(String destinationId, int limit) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM notify_outbox "
                        + "WHERE destination_id = :destination ORDER BY created_at DESC, id LIMIT :limit")
                .bind("destination", destinationId)
                .bind("limit", limit)
                .map(JdbiOutbox::map)
                .list());
    }

    private static Row map(ResultSet row, StatementContext context) throws SQLException {
        int status = row.getInt("last_status");
        Optional<Integer> lastStatus = row.wasNull() ? Optional.empty() : Optional.of(status);
        return new Row(row.getString("id"), Channel.parse(row.getString("channel")),
                Optional.ofNullable(row.getString("destination_id")), row.getString("target"),
                Kind.parse(row.getString("kind")), row.getString("event_key"), row.getString("payload"),
                Times.instant(row, "created_at").orElseThrow(), row.getInt("attempts"),
                Times.instant(row, "next_attempt_at").orElseThrow(), Times.instant(row, "delivered_at"),
                Times.instant(row, "gave_up_at"), lastStatus, Optional.ofNullable(row.getString("last_error")));
    }
}
