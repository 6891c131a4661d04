package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.oauth.session.AgentToken;
import dev.klave.oauth.session.AgentTokenStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link AgentTokenStore} in SQL. */
public final class JdbiAgentTokenStore implements AgentTokenStore {
    private static final String COLUMNS = "hash, kind, session_id, created_at, expires_at, used_at, redirect_uri, "
            + "code_challenge";

    private final Database database;

    public JdbiAgentTokenStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(AgentToken token) {
        database.write(handle -> handle.createUpdate("INSERT INTO agent_tokens (" + COLUMNS + ") VALUES (:hash, "
                        + ":kind, :session_id, :created_at, :expires_at, :used_at, :redirect_uri, :code_challenge)")
                .bind("hash", token.hash())
                .bind("kind", token.kind().code())
                .bind("session_id", token.sessionId())
                .bind("created_at", token.createdAt().toEpochMilli())
                .bind("expires_at", token.expiresAt().toEpochMilli())
                .bind("used_at", Times.toMillis(token.usedAt()))
                .bind("redirect_uri", token.redirectUri().orElse(null))
                .bind("code_challenge", token.codeChallenge().orElse(null))
                .execute());
    }

    @Override
    public Optional<AgentToken> findByHash(String hash) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS
                        + " FROM agent_tokens WHERE hash = :hash")
                .bind("hash", hash)
                .map(JdbiAgentTokenStore::read)
                .findOne());
    }

    @Override
    public boolean use(String hash, Instant at) {
        // One conditional update: of two replicas honouring the same code or refresh token at once,
        // exactly one changes the row.
        return database.write(handle -> handle.createUpdate("UPDATE agent_tokens SET used_at = :at "
                        + "WHERE hash = :hash AND used_at IS NULL AND kind IN ('code', 'refresh')")
                .bind("hash", hash)
                .bind("at", at.toEpochMilli())
                .execute()) == 1;
    }

    @Override
    public int deleteExpired(Instant before) {
        return database.write(handle -> handle.createUpdate("DELETE FROM agent_tokens WHERE expires_at < :before")
                .bind("before", before.toEpochMilli())
                .execute());
    }

    private static AgentToken read(ResultSet row, StatementContext context) throws SQLException {
        return new AgentToken(row.getString("hash"), AgentToken.Kind.parse(row.getString("kind")),
                row.getString("session_id"), Instant.ofEpochMilli(row.getLong("created_at")),
                Instant.ofEpochMilli(row.getLong("expires_at")), Times.instant(row, "used_at"),
                Optional.ofNullable(row.getString("redirect_uri")), Optional.ofNullable(row.getString("code_challenge")));
    }
}
