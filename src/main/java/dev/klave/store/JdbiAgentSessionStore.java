package dev.klave.store;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.oauth.session.AgentSession;
import dev.klave.oauth.session.AgentSessionStore;
import dev.klave.access.Permission;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link AgentSessionStore} in SQL; the chosen permissions as a JSON list. */
public final class JdbiAgentSessionStore implements AgentSessionStore {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS = "id, person_id, client_id, permissions, writes_need_approval, consent_via, "
            + "created_at, expires_at, ended_at, end_reason, last_used_at";

    private final Database database;

    public JdbiAgentSessionStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(AgentSession session) {
        database.write(handle -> handle.createUpdate("INSERT INTO agent_sessions (" + COLUMNS + ") VALUES (:id, "
                        + ":person_id, :client_id, :permissions, :writes_need_approval, :consent_via, :created_at, "
                        + ":expires_at, :ended_at, :end_reason, :last_used_at)")
                .bind("id", session.id())
                .bind("person_id", session.person().value())
                .bind("client_id", session.clientId())
                .bind("permissions", write(session.permissions()))
                .bind("writes_need_approval", session.writesNeedApproval())
                .bind("consent_via", session.consentVia())
                .bind("created_at", session.createdAt().toEpochMilli())
                .bind("expires_at", session.expiresAt().toEpochMilli())
                .bind("ended_at", Times.toMillis(session.endedAt()))
                .bind("end_reason", session.endReason().orElse(null))
                .bind("last_used_at", Times.toMillis(session.lastUsedAt()))
                .execute());
    }

    @Override
    public Optional<AgentSession> findById(String id) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS
                        + " FROM agent_sessions WHERE id = :id")
                .bind("id", id)
                .map(JdbiAgentSessionStore::read)
                .findOne());
    }

    @Override
    public List<AgentSession> list(Optional<SubjectId> person) {
        return database.withHandle(handle -> {
            var query = handle.createQuery("SELECT " + COLUMNS + " FROM agent_sessions"
                    + (person.isPresent() ? " WHERE person_id = :person" : "") + " ORDER BY created_at DESC, id");
            person.ifPresent(id -> query.bind("person", id.value()));
            return query.map(JdbiAgentSessionStore::read).list();
        });
    }

    @Override
    public boolean end(String id, Instant at, String reason) {
        return database.write(handle -> handle.createUpdate("UPDATE agent_sessions SET ended_at = :at, "
                        + "end_reason = :reason WHERE id = :id AND ended_at IS NULL")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("reason", reason)
                .execute()) == 1;
    }

    @Override
    public int endAllOf(SubjectId person, Instant at, String reason) {
        return database.write(handle -> handle.createUpdate("UPDATE agent_sessions SET ended_at = :at, "
                        + "end_reason = :reason WHERE person_id = :person AND ended_at IS NULL")
                .bind("person", person.value())
                .bind("at", at.toEpochMilli())
                .bind("reason", reason)
                .execute());
    }

    @Override
    public int endAllConsentedVia(SubjectId person, String via, Instant at, String reason) {
        return database.write(handle -> handle.createUpdate("UPDATE agent_sessions SET ended_at = :at, "
                        + "end_reason = :reason WHERE person_id = :person AND consent_via = :via AND ended_at IS NULL")
                .bind("person", person.value())
                .bind("via", via)
                .bind("at", at.toEpochMilli())
                .bind("reason", reason)
                .execute());
    }

    @Override
    public void touch(String id, Instant at) {
        database.write(handle -> handle.createUpdate("UPDATE agent_sessions SET last_used_at = :at WHERE id = :id")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .execute());
    }

    private static String write(List<Permission> permissions) {
        ArrayNode list = JSON.createArrayNode();
        for (Permission permission : permissions) {
            list.addObject().put("cluster", permission.cluster().value()).put("role", permission.role().code())
                    .put("scope", permission.scope().value());
        }
        return list.toString();
    }

    private static List<Permission> permissions(String text) {
        try {
            List<Permission> permissions = new ArrayList<>();
            for (JsonNode entry : JSON.readTree(text)) {
                permissions.add(new Permission(new ClusterId(entry.path("cluster").asText()),
                        Tier.fromCode(entry.path("role").asText()).orElseThrow(),
                        new Scope(entry.path("scope").asText())));
            }
            return permissions;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("agent_sessions.permissions is not JSON", e);
        }
    }

    private static AgentSession read(ResultSet row, StatementContext context) throws SQLException {
        return new AgentSession(row.getString("id"), new SubjectId(row.getString("person_id")),
                row.getString("client_id"), permissions(row.getString("permissions")),
                row.getBoolean("writes_need_approval"), row.getString("consent_via"),
                Instant.ofEpochMilli(row.getLong("created_at")), Instant.ofEpochMilli(row.getLong("expires_at")),
                Times.instant(row, "ended_at"), Optional.ofNullable(row.getString("end_reason")),
                Times.instant(row, "last_used_at"));
    }
}
