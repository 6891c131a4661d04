package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.access.EligibleGrant;
import dev.klave.access.EligibleGrantStore;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link EligibleGrantStore} in SQL. */
public final class JdbiEligibleGrantStore implements EligibleGrantStore {
    private static final String COLUMNS = "id, subject_id, cluster_id, tier, scope, max_minutes, needs_approval, "
            + "note, created_at, created_by, revoked_at, revoked_by";

    private final Database database;

    public JdbiEligibleGrantStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(EligibleGrant grant) {
        database.write(handle -> handle.createUpdate("INSERT INTO eligible_grants (" + COLUMNS + ") VALUES (:id, "
                        + ":subject_id, :cluster_id, :tier, :scope, :max_minutes, :needs_approval, :note, :created_at, "
                        + ":created_by, :revoked_at, :revoked_by)")
                .bind("id", grant.id())
                .bind("subject_id", grant.subjectId().value())
                .bind("cluster_id", grant.clusterId().value())
                .bind("tier", grant.tier().code())
                .bind("scope", grant.scope().value())
                .bind("max_minutes", grant.maxMinutes())
                .bind("needs_approval", grant.needsApproval())
                .bind("note", grant.note())
                .bind("created_at", grant.createdAt().toEpochMilli())
                .bind("created_by", grant.createdBy().orElse(null))
                .bind("revoked_at", Times.toMillis(grant.revokedAt()))
                .bind("revoked_by", grant.revokedBy().orElse(null))
                .execute());
    }

    @Override
    public Optional<EligibleGrant> findById(String id) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS
                        + " FROM eligible_grants WHERE id = :id")
                .bind("id", id)
                .map(JdbiEligibleGrantStore::map)
                .findOne());
    }

    @Override
    public List<EligibleGrant> find(Optional<SubjectId> subject, Optional<ClusterId> cluster, boolean includeRevoked,
            int limit) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM eligible_grants WHERE 1 = 1");
        subject.ifPresent(ignored -> sql.append(" AND subject_id = :subject_id"));
        cluster.ifPresent(ignored -> sql.append(" AND cluster_id = :cluster_id"));
        if (!includeRevoked) {
            sql.append(" AND revoked_at IS NULL");
        }
        sql.append(" ORDER BY created_at DESC, id LIMIT :limit");
        return database.withHandle(handle -> {
            var query = handle.createQuery(sql.toString());
            subject.ifPresent(id -> query.bind("subject_id", id.value()));
            cluster.ifPresent(id -> query.bind("cluster_id", id.value()));
            return query.bind("limit", limit).map(JdbiEligibleGrantStore::map).list();
        });
    }

    @Override
    public boolean revoke(String id, Instant at, String by) {
        return database.write(handle -> handle.createUpdate("UPDATE eligible_grants SET revoked_at = :at, "
                        + "revoked_by = :by WHERE id = :id AND revoked_at IS NULL")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("by", by)
                .execute()) == 1;
    }

    private static EligibleGrant map(ResultSet row, StatementContext context) throws SQLException {
        return new EligibleGrant(row.getString("id"), new SubjectId(row.getString("subject_id")),
                new ClusterId(row.getString("cluster_id")), Tier.fromCode(row.getString("tier")).orElseThrow(),
                new Scope(row.getString("scope")), row.getInt("max_minutes"), row.getBoolean("needs_approval"),
                row.getString("note"), Times.instant(row, "created_at").orElseThrow(),
                Optional.ofNullable(row.getString("created_by")), Times.instant(row, "revoked_at"),
                Optional.ofNullable(row.getString("revoked_by")));
    }
}
