package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SessionStore;
import dev.klave.account.SubjectId;
import dev.klave.account.WebSession;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link SessionStore} in SQL. */
public final class JdbiSessionStore implements SessionStore {
    private final Database database;

    public JdbiSessionStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(WebSession session) {
        database.write(handle -> handle.createUpdate("INSERT INTO sessions "
                        + "(id_hash, subject_id, created_at, expires_at, closed_at) "
                        + "VALUES (:id_hash, :subject_id, :created_at, :expires_at, :closed_at)")
                .bind("id_hash", session.idHash())
                .bind("subject_id", session.subjectId().value())
                .bind("created_at", session.createdAt().toEpochMilli())
                .bind("expires_at", session.expiresAt().toEpochMilli())
                .bind("closed_at", Times.toMillis(session.closedAt()))
                .execute());
    }

    @Override
    public Optional<WebSession> findByHash(String idHash) {
        return database.withHandle(handle -> handle.createQuery("SELECT id_hash, subject_id, created_at, "
                        + "expires_at, closed_at FROM sessions WHERE id_hash = :id_hash")
                .bind("id_hash", idHash)
                .map(JdbiSessionStore::map)
                .findOne());
    }

    @Override
    public int closeAll(SubjectId subjectId, Instant now) {
        return database.write(handle -> handle.createUpdate("UPDATE sessions SET closed_at = :now "
                        + "WHERE subject_id = :subject_id AND closed_at IS NULL")
                .bind("subject_id", subjectId.value())
                .bind("now", now.toEpochMilli())
                .execute());
    }

    @Override
    public int closeAllExcept(SubjectId subjectId, String keptIdHash, Instant now) {
        return database.write(handle -> handle.createUpdate("UPDATE sessions SET closed_at = :now "
                        + "WHERE subject_id = :subject_id AND closed_at IS NULL AND id_hash <> :kept")
                .bind("subject_id", subjectId.value())
                .bind("kept", keptIdHash)
                .bind("now", now.toEpochMilli())
                .execute());
    }

    private static WebSession map(ResultSet row, StatementContext context) throws SQLException {
        return new WebSession(row.getString("id_hash"), new SubjectId(row.getString("subject_id")),
                Times.instant(row, "created_at").orElseThrow(), Times.instant(row, "expires_at").orElseThrow(),
                Times.instant(row, "closed_at"));
    }

    @Override
    public boolean everOpened(SubjectId subjectId) {
        return database.withHandle(handle -> handle.createQuery(
                        "SELECT COUNT(*) FROM sessions WHERE subject_id = :subject_id")
                .bind("subject_id", subjectId.value())
                .mapTo(Integer.class)
                .one()) > 0;
    }

    @Override
    public java.util.Map<SubjectId, Instant> lastOpened(java.util.Collection<SubjectId> subjects) {
        java.util.Map<SubjectId, Instant> last = new java.util.HashMap<>();
        database.withHandle(handle -> {
            ListingSql.inBatches(subjects, ids -> handle.createQuery("SELECT subject_id, MAX(created_at) AS at "
                            + "FROM sessions WHERE subject_id IN (<ids>) GROUP BY subject_id")
                    .bindList("ids", ids)
                    .map((row, context) -> java.util.Map.entry(new SubjectId(row.getString("subject_id")),
                            Instant.ofEpochMilli(row.getLong("at"))))
                    .forEach(entry -> last.put(entry.getKey(), entry.getValue())));
            return null;
        });
        return last;
    }
}
