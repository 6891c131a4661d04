package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.agent.approval.Actor;
import dev.klave.agent.approval.HeldCall;
import dev.klave.agent.approval.WriteRequest;
import dev.klave.agent.approval.WriteRequestStore;
import dev.klave.agent.approval.WriteStatus;
import dev.klave.cluster.ClusterId;
import dev.klave.kube.Method;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link WriteRequestStore} in SQL. */
public final class JdbiWriteRequestStore implements WriteRequestStore {
    private static final String COLUMNS = "id, subject_id, credential_id, session_id, decider_id, cluster_id, "
            + "namespace, tool, verb, resource, name, arguments_hash, call_method, call_target, call_path, "
            + "call_query, call_body, call_content_type, preview, status, created_at, expires_at, decided_at, decided_by, executed_at";

    private final Database database;

    public JdbiWriteRequestStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(WriteRequest request) {
        database.write(handle -> handle.createUpdate("INSERT INTO write_requests (" + COLUMNS + ") VALUES (:id, "
                        + ":subject_id, :credential_id, :session_id, :decider_id, :cluster_id, :namespace, :tool, "
                        + ":verb, :resource, :name, :arguments_hash, :call_method, :call_target, :call_path, "
                        + ":call_query, :call_body, :call_content_type, :preview, :status, :created_at, :expires_at, :decided_at, :decided_by, "
                        + ":executed_at)")
                .bind("id", request.id())
                .bind("subject_id", request.actor().subject().value())
                .bind("credential_id", request.actor().credentialId().orElse(null))
                .bind("session_id", request.actor().sessionId().orElse(null))
                .bind("decider_id", request.decider().map(SubjectId::value).orElse(null))
                .bind("cluster_id", request.cluster().value())
                .bind("namespace", request.namespace())
                .bind("tool", request.tool())
                .bind("verb", request.verb())
                .bind("resource", request.resource())
                .bind("name", request.name())
                .bind("arguments_hash", request.argumentsHash())
                .bind("call_method", request.call().method().name())
                .bind("call_target", request.call().target())
                .bind("call_path", HeldCallJson.path(request.call().path()))
                .bind("call_query", HeldCallJson.query(request.call().query()))
                .bind("call_body", request.call().body().orElse(null))
                .bind("call_content_type", request.call().contentType().orElse(null))
                .bind("preview", request.preview())
                .bind("status", request.status().code())
                .bind("created_at", request.createdAt().toEpochMilli())
                .bind("expires_at", request.expiresAt().toEpochMilli())
                .bind("decided_at", Times.toMillis(request.decidedAt()))
                .bind("decided_by", request.decidedBy().orElse(null))
                .bind("executed_at", Times.toMillis(request.executedAt()))
                .execute());
    }

    @Override
    public Optional<WriteRequest> findById(String id) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS
                        + " FROM write_requests WHERE id = :id")
                .bind("id", id)
                .map(JdbiWriteRequestStore::map)
                .findOne());
    }

    @Override
    public void lockSubject(SubjectId subject) {
        // SQLite: the IMMEDIATE transaction already holds the database's write lock.
        if (database.dialect() != Dialect.POSTGRES) {
            return;
        }
        database.withHandle(handle -> handle.createQuery("SELECT id FROM subjects WHERE id = :id FOR UPDATE")
                .bind("id", subject.value())
                .mapTo(String.class)
                .findOne());
    }

    @Override
    public Optional<WriteRequest> findPending(Actor actor, String argumentsHash, Instant now) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM write_requests "
                        + "WHERE subject_id = :subject_id AND arguments_hash = :arguments_hash "
                        + "AND status = 'pending' AND expires_at > :now "
                        + "AND credential_id IS NOT DISTINCT FROM :credential_id "
                        + "AND session_id IS NOT DISTINCT FROM :session_id "
                        + "ORDER BY created_at, id LIMIT 1")
                .bind("subject_id", actor.subject().value())
                .bind("arguments_hash", argumentsHash)
                .bind("now", now.toEpochMilli())
                .bind("credential_id", actor.credentialId().orElse(null))
                .bind("session_id", actor.sessionId().orElse(null))
                .map(JdbiWriteRequestStore::map)
                .findOne());
    }

    @Override
    public int countPending(SubjectId subject, Instant now) {
        return database.withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM write_requests "
                        + "WHERE subject_id = :subject_id AND status = 'pending' AND expires_at > :now")
                .bind("subject_id", subject.value())
                .bind("now", now.toEpochMilli())
                .mapTo(Integer.class)
                .one());
    }

    @Override
    public boolean decide(String id, WriteStatus to, Instant at, String by) {
        if (to != WriteStatus.APPROVED && to != WriteStatus.DENIED) {
            throw new IllegalArgumentException("a decision approves or denies: " + to);
        }
        return database.write(handle -> handle.createUpdate("UPDATE write_requests SET status = :to, "
                        + "decided_at = :at, decided_by = :by "
                        + "WHERE id = :id AND status = 'pending' AND expires_at > :at")
                .bind("id", id)
                .bind("to", to.code())
                .bind("at", at.toEpochMilli())
                .bind("by", by)
                .execute()) == 1;
    }

    @Override
    public boolean markExecuted(String id, Instant at) {
        return database.write(handle -> handle.createUpdate("UPDATE write_requests SET status = 'executed', "
                        + "executed_at = :at WHERE id = :id AND status = 'approved'")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .execute()) == 1;
    }

    @Override
    public List<WriteRequest> forDecider(Optional<SubjectId> decider, Instant now, int limit) {
        String whose = decider.isPresent() ? "decider_id = :decider_id" : "decider_id IS NULL";
        return database.withHandle(handle -> {
            var query = handle.createQuery("SELECT " + COLUMNS + " FROM write_requests WHERE " + whose
                    + " ORDER BY CASE WHEN status = 'pending' AND expires_at > :now THEN 0 ELSE 1 END, "
                    + "created_at DESC, id LIMIT :limit");
            decider.ifPresent(id -> query.bind("decider_id", id.value()));
            return query.bind("now", now.toEpochMilli())
                    .bind("limit", limit)
                    .map(JdbiWriteRequestStore::map)
                    .list();
        });
    }

    private static WriteRequest map(ResultSet row, StatementContext context) throws SQLException {
        Actor actor = new Actor(new SubjectId(row.getString("subject_id")),
                Optional.ofNullable(row.getString("credential_id")), Optional.ofNullable(row.getString("session_id")));
        // Klave wrote the method; any other text in the row is a changed row: refuse to read it.
        HeldCall call = new HeldCall(Method.parse(row.getString("call_method")).orElseThrow(
                () -> new SQLException("a held call's method is not one the Kubernetes API serves")),
                HeldCallJson.path(row.getString("call_path")),
                HeldCallJson.query(row.getString("call_query")), Optional.ofNullable(row.getString("call_body")),
                Optional.ofNullable(row.getString("call_content_type")));
        return new WriteRequest(row.getString("id"), actor,
                Optional.ofNullable(row.getString("decider_id")).map(SubjectId::new),
                new ClusterId(row.getString("cluster_id")), row.getString("namespace"), row.getString("tool"),
                row.getString("verb"), row.getString("resource"), row.getString("name"),
                row.getString("arguments_hash"), call, row.getString("preview"),
                WriteStatus.parse(row.getString("status")), Times.instant(row, "created_at").orElseThrow(),
                Times.instant(row, "expires_at").orElseThrow(), Times.instant(row, "decided_at"),
                Optional.ofNullable(row.getString("decided_by")), Times.instant(row, "executed_at"));
    }
}
