package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.account.LinkPurpose;
import dev.klave.account.LinkToken;
import dev.klave.account.LinkTokenStore;
import dev.klave.account.SubjectId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link LinkTokenStore} in SQL. */
public final class JdbiLinkTokenStore implements LinkTokenStore {
    private static final String COLUMNS =
            "id, token_hash, subject_id, purpose, created_at, expires_at, consumed_at, revoked_at";

    private final Database database;

    public JdbiLinkTokenStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(LinkToken token) {
        database.write(handle -> handle.createUpdate("INSERT INTO link_tokens (" + COLUMNS + ") VALUES "
                        + "(:id, :token_hash, :subject_id, :purpose, :created_at, :expires_at, :consumed_at, :revoked_at)")
                .bind("id", token.id())
                .bind("token_hash", token.tokenHash())
                .bind("subject_id", token.subjectId().value())
                .bind("purpose", token.purpose().code())
                .bind("created_at", token.createdAt().toEpochMilli())
                .bind("expires_at", token.expiresAt().toEpochMilli())
                .bind("consumed_at", Times.toMillis(token.consumedAt()))
                .bind("revoked_at", Times.toMillis(token.revokedAt()))
                .execute());
    }

    @Override
    public Optional<LinkToken> findByHash(String tokenHash) {
        return database.withHandle(handle -> handle.createQuery(
                        "SELECT " + COLUMNS + " FROM link_tokens WHERE token_hash = :token_hash")
                .bind("token_hash", tokenHash)
                .map(JdbiLinkTokenStore::map)
                .findOne());
    }

    @Override
    public boolean consume(String id, Instant now) {
        return database.write(handle -> handle.createUpdate("UPDATE link_tokens SET consumed_at = :now "
                        + "WHERE id = :id AND consumed_at IS NULL AND revoked_at IS NULL AND expires_at > :now")
                .bind("id", id)
                .bind("now", now.toEpochMilli())
                .execute()) == 1;
    }

    @Override
    public int revokePending(SubjectId subjectId, Instant now) {
        return database.write(handle -> handle.createUpdate("UPDATE link_tokens SET revoked_at = :now "
                        + "WHERE subject_id = :subject_id AND consumed_at IS NULL AND revoked_at IS NULL "
                        + "AND expires_at > :now")
                .bind("subject_id", subjectId.value())
                .bind("now", now.toEpochMilli())
                .execute());
    }

    private static LinkToken map(ResultSet row, StatementContext context) throws SQLException {
        return new LinkToken(
                row.getString("id"),
                row.getString("token_hash"),
                new SubjectId(row.getString("subject_id")),
                LinkPurpose.fromCode(row.getString("purpose")),
                Times.instant(row, "created_at").orElseThrow(),
                Times.instant(row, "expires_at").orElseThrow(),
                Times.instant(row, "consumed_at"),
                Times.instant(row, "revoked_at"));
    }

    @Override
    public boolean hasPending(SubjectId subjectId, Instant now) {
        return database.withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM link_tokens "
                        + "WHERE subject_id = :subject_id AND consumed_at IS NULL AND revoked_at IS NULL "
                        + "AND expires_at > :now")
                .bind("subject_id", subjectId.value())
                .bind("now", now.toEpochMilli())
                .mapTo(Integer.class)
                .one()) > 0;
    }

    @Override
    public java.util.Map<SubjectId, Instant> pendingUntil(java.util.Collection<SubjectId> subjects, Instant now) {
        java.util.Map<SubjectId, Instant> until = new java.util.HashMap<>();
        database.withHandle(handle -> {
            ListingSql.inBatches(subjects, ids -> handle.createQuery("SELECT subject_id, MAX(expires_at) AS until "
                            + "FROM link_tokens WHERE subject_id IN (<ids>) AND consumed_at IS NULL "
                            + "AND revoked_at IS NULL AND expires_at > :now GROUP BY subject_id")
                    .bindList("ids", ids)
                    .bind("now", now.toEpochMilli())
                    .map((row, context) -> java.util.Map.entry(new SubjectId(row.getString("subject_id")),
                            Instant.ofEpochMilli(row.getLong("until"))))
                    .forEach(entry -> until.put(entry.getKey(), entry.getValue())));
            return null;
        });
        return until;
    }
}
