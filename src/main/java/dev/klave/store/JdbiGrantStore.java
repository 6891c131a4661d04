package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Grant;
import dev.klave.access.GrantFilter;
import dev.klave.access.GrantStore;
import dev.klave.access.ListedGrant;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.Login;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.storage.Keyset;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link GrantStore} in SQL. */
public final class JdbiGrantStore implements GrantStore {
    private static final String COLUMNS = "id, subject_id, cluster_id, tier, scope, expires_at, note, created_at, "
            + "created_by, revoked_at, revoked_by";
    private static final String QUALIFIED = "g." + COLUMNS.replace(", ", ", g.");

    private final Database database;

    public JdbiGrantStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(Grant grant) {
        database.write(handle -> handle.createUpdate("INSERT INTO grants (" + COLUMNS + ") VALUES (:id, "
                        + ":subject_id, :cluster_id, :tier, :scope, :expires_at, :note, :created_at, :created_by, "
                        + ":revoked_at, :revoked_by)")
                .bind("id", grant.id())
                .bind("subject_id", grant.subjectId().value())
                .bind("cluster_id", grant.clusterId().value())
                .bind("tier", grant.tier().code())
                .bind("scope", grant.scope().value())
                .bind("expires_at", Times.toMillis(grant.expiresAt()))
                .bind("note", grant.note())
                .bind("created_at", grant.createdAt().toEpochMilli())
                .bind("created_by", grant.createdBy().orElse(null))
                .bind("revoked_at", Times.toMillis(grant.revokedAt()))
                .bind("revoked_by", grant.revokedBy().orElse(null))
                .execute());
    }

    @Override
    public Optional<Grant> findById(String id) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM grants WHERE id = :id")
                .bind("id", id)
                .map(JdbiGrantStore::map)
                .findOne());
    }

    @Override
    public List<Grant> find(Optional<SubjectId> subject, Optional<ClusterId> cluster, boolean includeRevoked) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM grants WHERE 1 = 1");
        subject.ifPresent(ignored -> sql.append(" AND subject_id = :subject_id"));
        cluster.ifPresent(ignored -> sql.append(" AND cluster_id = :cluster_id"));
        if (!includeRevoked) {
            sql.append(" AND revoked_at IS NULL");
        }
        sql.append(" ORDER BY created_at DESC, id");
        return database.withHandle(handle -> {
            var query = handle.createQuery(sql.toString());
            subject.ifPresent(id -> query.bind("subject_id", id.value()));
            cluster.ifPresent(id -> query.bind("cluster_id", id.value()));
            return query.map(JdbiGrantStore::map).list();
        });
    }

    @Override
    public List<ListedGrant> list(GrantFilter filter, Optional<Keyset> after, int limit) {
        ListingSql.Statement statement = listing(filter, after, limit);
        return database.withHandle(handle -> statement.list(handle, (row, context) -> new ListedGrant(
                map(row, context), new Login(row.getString("holder_login")), Times.instant(row, "holder_disabled_at").isEmpty())));
    }

    /**
     * The listing's one statement: the holder comes from a join, never from a query per row. By
     * holder or by cluster, an index gives both the rows and their order ({@code V22}); without
     * either, the newest-first index does.
     */
    static ListingSql.Statement listing(GrantFilter filter, Optional<Keyset> after, int limit) {
        ListingSql sql = new ListingSql("SELECT " + QUALIFIED + ", s.login AS holder_login, "
                + "s.disabled_at AS holder_disabled_at FROM grants g "
                + "JOIN subjects s ON s.id = g.subject_id");
        filter.subject().ifPresent(subject -> sql.where("g.subject_id = :subject_id", "subject_id", subject.value()));
        filter.cluster().ifPresent(cluster -> sql.where("g.cluster_id = :cluster_id", "cluster_id", cluster.value()));
        if (!filter.includeRevoked()) {
            sql.where("g.revoked_at IS NULL");
        }
        return sql.after(after, "g.created_at", "g.id").orderBy("g.created_at DESC, g.id", limit);
    }

    @Override
    public Map<SubjectId, Integer> countActive(Collection<SubjectId> subjects, Instant now) {
        return database.withHandle(handle -> ListingSql.countBySubject(handle, "grants",
                "revoked_at IS NULL AND (expires_at IS NULL OR expires_at > :now)", subjects, now.toEpochMilli()));
    }

    @Override
    public boolean revoke(String id, Instant at, String by) {
        return database.write(handle -> handle.createUpdate("UPDATE grants SET revoked_at = :at, revoked_by = :by "
                        + "WHERE id = :id AND revoked_at IS NULL")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("by", by)
                .execute()) == 1;
    }

    private static Grant map(ResultSet row, StatementContext context) throws SQLException {
        return new Grant(row.getString("id"), new SubjectId(row.getString("subject_id")),
                new ClusterId(row.getString("cluster_id")), Tier.fromCode(row.getString("tier")).orElseThrow(),
                new Scope(row.getString("scope")), Times.instant(row, "expires_at"), row.getString("note"),
                Times.instant(row, "created_at").orElseThrow(), Optional.ofNullable(row.getString("created_by")),
                Times.instant(row, "revoked_at"), Optional.ofNullable(row.getString("revoked_by")));
    }
}
