package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.AuditFilter;
import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link AuditStore} in SQL; batches are JDBC batches inside one transaction. */
public final class JdbiAuditStore implements AuditStore {
    private static final String COLUMNS = "id, at, subject_id, subject_login, credential_id, cluster_id, namespace, "
            + "verb, resource, name, path, client_ip, status, error, completed_at";

    private final Database database;

    public JdbiAuditStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void insertAll(List<AuditRow> rows) {
        database.inTransaction(() -> database.withHandle(handle -> {
            PreparedBatch batch = handle.prepareBatch("INSERT INTO audit (" + COLUMNS + ") VALUES (:id, :at, "
                    + ":subject_id, :subject_login, :credential_id, :cluster_id, :namespace, :verb, :resource, :name, "
                    + ":path, :client_ip, :status, :error, :completed_at)");
            for (AuditRow row : rows) {
                batch.bind("id", row.id())
                        .bind("at", row.at().toEpochMilli())
                        .bind("subject_id", row.subjectId().orElse(null))
                        .bind("subject_login", row.subjectLogin().orElse(null))
                        .bind("credential_id", row.credentialId().orElse(null))
                        .bind("cluster_id", row.clusterId())
                        .bind("namespace", row.namespace().orElse(null))
                        .bind("verb", row.verb())
                        .bind("resource", row.resource().orElse(null))
                        .bind("name", row.name().orElse(null))
                        .bind("path", row.path())
                        .bind("client_ip", row.clientIp().orElse(null))
                        .bind("status", row.status().orElse(null))
                        .bind("error", row.error().orElse(null))
                        .bind("completed_at", Times.toMillis(row.completedAt()))
                        .add();
            }
            return batch.execute();
        }));
    }

    @Override
    public void completeAll(List<AuditRow.Completion> completions) {
        database.inTransaction(() -> database.withHandle(handle -> {
            PreparedBatch batch = handle.prepareBatch("UPDATE audit SET status = :status, error = :error, "
                    + "completed_at = :at WHERE id = :id");
            for (AuditRow.Completion completion : completions) {
                batch.bind("id", completion.id())
                        .bind("status", completion.status())
                        .bind("error", completion.error().orElse(null))
                        .bind("at", completion.at().toEpochMilli())
                        .add();
            }
            return batch.execute();
        }));
    }

    @Override
    public void write(List<AuditRow> rows, List<AuditRow.Completion> completions) {
        database.inTransaction(() -> {
            if (!rows.isEmpty()) {
                insertAll(rows);
            }
            if (!completions.isEmpty()) {
                completeAll(completions);
            }
            return null;
        });
    }

    @Override
    public List<AuditRow> find(AuditFilter filter, int offset, int limit) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM audit WHERE 1 = 1");
        Map<String, Object> parameters = new LinkedHashMap<>();
        condition(sql, parameters, "subject_id", filter.subject());
        condition(sql, parameters, "cluster_id", filter.cluster());
        condition(sql, parameters, "namespace", filter.namespace());
        condition(sql, parameters, "verb", filter.verb());
        condition(sql, parameters, "resource", filter.resource());
        condition(sql, parameters, "credential_id", filter.credential());
        filter.from().ifPresent(from -> {
            sql.append(" AND at >= :from");
            parameters.put("from", from.toEpochMilli());
        });
        filter.to().ifPresent(to -> {
            sql.append(" AND at <= :to");
            parameters.put("to", to.toEpochMilli());
        });
        if (!filter.includeDiscovery()) {
            sql.append(" AND resource IS NOT NULL");
        }
        sql.append(" ORDER BY at DESC, id DESC LIMIT :limit OFFSET :offset");
        parameters.put("limit", limit);
        parameters.put("offset", offset);
        return database.withHandle(handle -> handle.createQuery(sql.toString())
                .bindMap(parameters)
                .map(JdbiAuditStore::map)
                .list());
    }

    private static void condition(StringBuilder sql, Map<String, Object> parameters, String column,
            Optional<String> value) {
        value.ifPresent(text -> {
            sql.append(" AND ").append(column).append(" = :").append(column);
            parameters.put(column, text);
        });
    }

    @Override
    public Optional<AuditRow> findById(String id) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM audit WHERE id = :id")
                .bind("id", id)
                .map(JdbiAuditStore::map)
                .findOne());
    }

    private static AuditRow map(ResultSet row, StatementContext context) throws SQLException {
        int status = row.getInt("status");
        Optional<Integer> completedStatus = row.wasNull() ? Optional.empty() : Optional.of(status);
        return new AuditRow(row.getString("id"), Times.instant(row, "at").orElseThrow(),
                Optional.ofNullable(row.getString("subject_id")), Optional.ofNullable(row.getString("subject_login")),
                Optional.ofNullable(row.getString("credential_id")), row.getString("cluster_id"),
                Optional.ofNullable(row.getString("namespace")), row.getString("verb"),
                Optional.ofNullable(row.getString("resource")), Optional.ofNullable(row.getString("name")),
                row.getString("path"), Optional.ofNullable(row.getString("client_ip")), completedStatus,
                Optional.ofNullable(row.getString("error")), Times.instant(row, "completed_at"));
    }
}
