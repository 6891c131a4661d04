package dev.klave.store;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.audit.ControlEvent;
import dev.klave.audit.ControlEventStore;
import dev.klave.audit.EventFilter;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link ControlEventStore} in SQL; the insertion sequence orders events that share a millisecond. */
public final class JdbiControlEventStore implements ControlEventStore {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<java.util.LinkedHashMap<String, Object>> DETAILS = new TypeReference<>() {};

    private final Database database;

    public JdbiControlEventStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void append(ControlEvent event) {
        database.write(handle -> handle.createUpdate("INSERT INTO control_events "
                        + "(id, at, type, actor_id, actor_login, target_id, target_login, via, reason, client_ip, details) "
                        + "VALUES (:id, :at, :type, :actor_id, :actor_login, :target_id, :target_login, :via, :reason, "
                        + ":client_ip, :details)")
                .bind("id", event.id())
                .bind("at", event.at().toEpochMilli())
                .bind("type", event.type())
                .bind("actor_id", event.actor().map(ControlEvent.SubjectRef::id).orElse(null))
                .bind("actor_login", event.actor().map(ControlEvent.SubjectRef::login).orElse(null))
                .bind("target_id", event.target().map(ControlEvent.SubjectRef::id).orElse(null))
                .bind("target_login", event.target().map(ControlEvent.SubjectRef::login).orElse(null))
                .bind("via", event.via().orElse(null))
                .bind("reason", event.reason().orElse(null))
                .bind("client_ip", event.clientIp().orElse(null))
                .bind("details", event.details().isEmpty() ? null : write(event.details()))
                .execute());
    }

    @Override
    public List<ControlEvent> newestFirst(EventFilter filter, Optional<String> afterId, int offset, int limit) {
        return database.withHandle(handle -> ControlEventListing.of(filter, afterId, offset, limit)
                .list(handle, JdbiControlEventStore::map));
    }

    /** The events {@code ids} name, in no order (the audit feed's). */
    public List<ControlEvent> findByIds(List<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return database.withHandle(handle -> handle.createQuery("SELECT " + ControlEventListing.COLUMNS
                        + " FROM control_events WHERE id IN (<ids>)")
                .bindList("ids", ids).map(JdbiControlEventStore::map).list());
    }

    @Override
    public int count(String type, Optional<String> via, Instant since) {
        return database.withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM control_events "
                        + "WHERE type = :type AND at >= :since" + (via.isPresent() ? " AND via = :via" : ""))
                .bind("type", type)
                .bind("since", since.toEpochMilli())
                .bind("via", via.orElse(null))
                .mapTo(Integer.class)
                .one());
    }

    private static ControlEvent map(ResultSet row, StatementContext context) throws SQLException {
        return new ControlEvent(row.getString("id"), Times.instant(row, "at").orElseThrow(), row.getString("type"),
                reference(row.getString("actor_id"), row.getString("actor_login")),
                reference(row.getString("target_id"), row.getString("target_login")),
                Optional.ofNullable(row.getString("via")), Optional.ofNullable(row.getString("reason")),
                Optional.ofNullable(row.getString("client_ip")), read(row.getString("details")));
    }

    private static Optional<ControlEvent.SubjectRef> reference(String id, String login) {
        return id == null ? Optional.empty() : Optional.of(new ControlEvent.SubjectRef(id, login));
    }

    private static String write(Map<String, Object> details) {
        try {
            return MAPPER.writeValueAsString(details);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write event details", e);
        }
    }

    private static Map<String, Object> read(String details) {
        if (details == null) {
            return Map.of();
        }
        try {
            return MAPPER.readValue(details, DETAILS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored event details are not JSON", e);
        }
    }
}
