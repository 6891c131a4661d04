package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.access.GrantOrigins;
import dev.klave.access.LentAccess;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.agent.approval.AccessRequest;
import dev.klave.agent.approval.AccessRequestStore;
import dev.klave.agent.approval.AccessStatus;
import dev.klave.agent.approval.Actor;
import dev.klave.agent.approval.Course;
import dev.klave.cluster.ClusterId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * {@link AccessRequestStore} in SQL; and {@link LentAccess}: the approved requests of delegated
 * agents' sessions, whose roles their persons' grants lend.
 */
public final class JdbiAccessRequestStore implements AccessRequestStore, LentAccess, GrantOrigins {
    private static final String COLUMNS = "id, subject_id, credential_id, session_id, decider_id, cluster_id, scope, "
            + "role, minutes, reason, status, created_at, expires_at, decided_at, decided_by, grant_id, grant_expires_at, "
            + "origin, eligible_id, approvals_needed, first_by, first_at, first_comment, comment, ended_at, ended_by";
    /**
     * What is read of a request: its columns, its access's end being the revocation of the grant it
     * made (or lends through) as soon as that happens — the sweep records the end and its event
     * later, but the request never says "running" over a revoked grant meanwhile (issue 51 §18).
     */
    private static final String SELECTED = COLUMNS.replace("ended_at", "COALESCE(ended_at, (SELECT g.revoked_at "
            + "FROM grants g WHERE g.id = access_requests.grant_id AND access_requests.status = 'approved')) AS ended_at");
    /** Pending and unexpired first, then the rest, newest first: every decider's list. */
    private static final String DECIDERS_ORDER = " ORDER BY CASE WHEN status = 'pending' AND expires_at > :now "
            + "THEN 0 ELSE 1 END, created_at DESC, id LIMIT :limit";

    /** The grant an approved request made, or lends through, was revoked (or is gone). */
    private static final String GRANT_REVOKED = "NOT EXISTS (SELECT 1 FROM grants g WHERE g.id = "
            + "access_requests.grant_id AND g.revoked_at IS NULL)";

    private final Database database;

    public JdbiAccessRequestStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(AccessRequest request) {
        Course course = request.course();
        database.write(handle -> handle.createUpdate("INSERT INTO access_requests (" + COLUMNS + ") VALUES (:id, "
                        + ":subject_id, :credential_id, :session_id, :decider_id, :cluster_id, :scope, :role, "
                        + ":minutes, :reason, :status, :created_at, :expires_at, :decided_at, :decided_by, :grant_id, "
                        + ":grant_expires_at, :origin, :eligible_id, :approvals_needed, :first_by, :first_at, "
                        + ":first_comment, :comment, :ended_at, :ended_by)")
                .bind("id", request.id())
                .bind("subject_id", request.actor().subject().value())
                .bind("credential_id", request.actor().credentialId().orElse(null))
                .bind("session_id", request.actor().sessionId().orElse(null))
                .bind("decider_id", request.decider().map(SubjectId::value).orElse(null))
                .bind("cluster_id", request.cluster().value())
                .bind("scope", request.scope().value())
                .bind("role", request.role().code())
                .bind("minutes", request.minutes())
                .bind("reason", request.reason())
                .bind("status", request.status().code())
                .bind("created_at", request.createdAt().toEpochMilli())
                .bind("expires_at", request.expiresAt().toEpochMilli())
                .bind("decided_at", Times.toMillis(request.decidedAt()))
                .bind("decided_by", request.decidedBy().orElse(null))
                .bind("grant_id", request.grantId().orElse(null))
                .bind("grant_expires_at", Times.toMillis(request.grantExpiresAt()))
                .bind("origin", course.origin().code())
                .bind("eligible_id", course.eligibleId().orElse(null))
                .bind("approvals_needed", course.approvalsNeeded())
                .bind("first_by", course.first().map(Course.Decision::by).orElse(null))
                .bind("first_at", Times.toMillis(course.first().map(Course.Decision::at)))
                .bind("first_comment", course.first().flatMap(Course.Decision::comment).orElse(null))
                .bind("comment", course.comment().orElse(null))
                .bind("ended_at", Times.toMillis(course.endedAt()))
                .bind("ended_by", course.endedBy().orElse(null))
                .execute());
    }

    @Override
    public Optional<AccessRequest> findById(String id) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED
                        + " FROM access_requests WHERE id = :id")
                .bind("id", id)
                .map(JdbiAccessRequestStore::map)
                .findOne());
    }

    @Override
    public boolean approve(String id, Instant at, String by, Optional<String> comment, String grantId,
            Instant grantExpiresAt) {
        return database.write(handle -> handle.createUpdate("UPDATE access_requests SET status = 'approved', "
                        + "decided_at = :at, decided_by = :by, comment = :comment, grant_id = :grant_id, "
                        + "grant_expires_at = :grant_expires_at WHERE id = :id AND status = 'pending' "
                        + "AND expires_at > :at")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("by", by)
                .bind("comment", comment.orElse(null))
                .bind("grant_id", grantId)
                .bind("grant_expires_at", grantExpiresAt.toEpochMilli())
                .execute()) == 1;
    }

    @Override
    public Optional<AccessRequest> lock(String id) {
        return database.write(handle -> {
            // A write to the row takes its lock on PostgreSQL (SQLite's transaction already holds the
            // database's write lock): a second decision waits here, then reads what the first left.
            handle.createUpdate("UPDATE access_requests SET id = id WHERE id = :id").bind("id", id).execute();
            return handle.createQuery("SELECT " + SELECTED + " FROM access_requests WHERE id = :id")
                    .bind("id", id)
                    .map(JdbiAccessRequestStore::map)
                    .findOne();
        });
    }

    @Override
    public boolean recordFirst(String id, Instant at, String by, Optional<String> comment) {
        return database.write(handle -> handle.createUpdate("UPDATE access_requests SET first_by = :by, "
                        + "first_at = :at, first_comment = :comment, approvals_needed = 2 WHERE id = :id "
                        + "AND status = 'pending' AND expires_at > :at")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("by", by)
                .bind("comment", comment.orElse(null))
                .execute()) == 1;
    }

    @Override
    public boolean withdraw(String id, Instant at, String why) {
        return database.write(handle -> handle.createUpdate("UPDATE access_requests SET status = 'cancelled', "
                        + "decided_at = :at, decided_by = NULL, comment = :why WHERE id = :id AND status = 'pending' "
                        + "AND expires_at > :at")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("why", why)
                .execute()) == 1;
    }

    @Override
    public List<AccessRequest> pendingOf(SubjectId subject, Instant now) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE subject_id = :subject_id AND status = 'pending' AND expires_at > :now ORDER BY id")
                .bind("subject_id", subject.value())
                .bind("now", now.toEpochMilli())
                .map(JdbiAccessRequestStore::map)
                .list());
    }

    @Override
    public List<AccessRequest> pendingActivations(String eligibleId, Instant now) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE eligible_id = :eligible_id AND status = 'pending' AND expires_at > :now ORDER BY id")
                .bind("eligible_id", eligibleId)
                .bind("now", now.toEpochMilli())
                .map(JdbiAccessRequestStore::map)
                .list());
    }

    @Override
    public List<AccessRequest> grantedRunning(SubjectId subject, Instant now) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE subject_id = :subject_id AND status = 'approved' AND session_id IS NULL "
                        + "AND ended_at IS NULL AND grant_expires_at > :now ORDER BY id")
                .bind("subject_id", subject.value())
                .bind("now", now.toEpochMilli())
                .map(JdbiAccessRequestStore::map)
                .list());
    }

    @Override
    public boolean deny(String id, Instant at, String by, Optional<String> comment) {
        return database.write(handle -> handle.createUpdate("UPDATE access_requests SET status = 'denied', "
                        + "decided_at = :at, decided_by = :by, comment = :comment "
                        + "WHERE id = :id AND status = 'pending' AND expires_at > :at")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("by", by)
                .bind("comment", comment.orElse(null))
                .execute()) == 1;
    }

    @Override
    public boolean cancel(String id, Instant at, String by) {
        return database.write(handle -> handle.createUpdate("UPDATE access_requests SET status = 'cancelled', "
                        + "decided_at = :at, decided_by = :by WHERE id = :id AND status = 'pending' AND expires_at > :at")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("by", by)
                .execute()) == 1;
    }

    @Override
    public boolean end(String id, Instant at, Optional<String> by) {
        // Early: now, while it runs. At its end: the end itself, once it has passed.
        String sql = by.isPresent()
                ? "UPDATE access_requests SET ended_at = :at, ended_by = :by WHERE id = :id AND status = 'approved' "
                        + "AND ended_at IS NULL AND grant_expires_at > :at"
                : "UPDATE access_requests SET ended_at = CASE WHEN grant_expires_at <= :at THEN grant_expires_at "
                        + "ELSE :at END WHERE id = :id AND status = 'approved' AND ended_at IS NULL "
                        + "AND (grant_expires_at <= :at OR " + GRANT_REVOKED + ")";
        return database.write(handle -> handle.createUpdate(sql)
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("by", by.orElse(null))
                .execute()) == 1;
    }

    @Override
    public List<AccessRequest> runOut(Instant now, int limit) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE status = 'pending' AND expires_at <= :now ORDER BY expires_at, id LIMIT :limit")
                .bind("now", now.toEpochMilli())
                .bind("limit", limit)
                .map(JdbiAccessRequestStore::map)
                .list());
    }

    @Override
    public boolean expire(String id, Instant now) {
        return database.write(handle -> handle.createUpdate("UPDATE access_requests SET status = 'expired' "
                        + "WHERE id = :id AND status = 'pending' AND expires_at <= :now")
                .bind("id", id)
                .bind("now", now.toEpochMilli())
                .execute()) == 1;
    }

    @Override
    public List<AccessRequest> reachedEnd(Instant now, int limit) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE status = 'approved' AND ended_at IS NULL AND (grant_expires_at <= :now OR "
                        + GRANT_REVOKED + ") ORDER BY grant_expires_at, id LIMIT :limit")
                .bind("now", now.toEpochMilli())
                .bind("limit", limit)
                .map(JdbiAccessRequestStore::map)
                .list());
    }

    @Override
    public List<AccessRequest> endingBy(Instant now, Instant until, int limit) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE status = 'approved' AND ended_at IS NULL AND grant_expires_at > :now "
                        + "AND grant_expires_at <= :until AND ending_told_at IS NULL "
                        + "ORDER BY grant_expires_at, id LIMIT :limit")
                .bind("now", now.toEpochMilli())
                .bind("until", until.toEpochMilli())
                .bind("limit", limit)
                .map(JdbiAccessRequestStore::map)
                .list());
    }

    @Override
    public boolean toldEnding(String id, Instant at) {
        return database.write(handle -> handle.createUpdate("UPDATE access_requests SET ending_told_at = :at "
                        + "WHERE id = :id AND ending_told_at IS NULL")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .execute()) == 1;
    }

    @Override
    public List<AccessRequest> inForce(Actor actor, Instant now) {
        String session = actor.sessionId().isPresent() ? " AND r.session_id = :session_id" : "";
        return database.withHandle(handle -> {
            // The grant decides: one revoked (or gone with its cluster) no longer puts its request in force.
            var query = handle.createQuery("SELECT " + qualified() + " FROM access_requests r "
                    + "JOIN grants g ON g.id = r.grant_id "
                    + "WHERE r.subject_id = :subject_id AND r.status = 'approved' AND r.grant_expires_at > :now "
                    + "AND r.ended_at IS NULL AND g.revoked_at IS NULL" + session + " ORDER BY r.decided_at, r.id");
            actor.sessionId().ifPresent(id -> query.bind("session_id", id));
            return query.bind("subject_id", actor.subject().value())
                    .bind("now", now.toEpochMilli())
                    .map(JdbiAccessRequestStore::map)
                    .list();
        });
    }

    @Override
    public List<LentAccess.Lent> inForce(ClusterId cluster, Instant now) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE cluster_id = :cluster_id AND status = 'approved' AND session_id IS NOT NULL "
                        + "AND grant_expires_at > :now")
                .bind("cluster_id", cluster.value())
                .bind("now", now.toEpochMilli())
                .map(JdbiAccessRequestStore::map)
                .list()).stream()
                .map(request -> new LentAccess.Lent(request.actor().subject(), request.cluster(), request.role(),
                        request.scope(), request.grantExpiresAt().orElseThrow()))
                .toList();
    }

    @Override
    public List<LentAccess.Lent> lentTo(String sessionId, Instant now) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE session_id = :session_id AND status = 'approved' AND grant_expires_at > :now")
                .bind("session_id", sessionId)
                .bind("now", now.toEpochMilli())
                .map(JdbiAccessRequestStore::map)
                .list()).stream()
                .map(request -> new LentAccess.Lent(request.actor().subject(), request.cluster(), request.role(),
                        request.scope(), request.grantExpiresAt().orElseThrow()))
                .toList();
    }

    @Override
    public List<AccessRequest> forDecider(Optional<SubjectId> decider, Instant now, int limit) {
        String whose = decider.isPresent() ? "decider_id = :decider_id" : "decider_id IS NULL";
        return database.withHandle(handle -> {
            var query = handle.createQuery("SELECT " + SELECTED + " FROM access_requests WHERE " + whose
                    + DECIDERS_ORDER);
            decider.ifPresent(id -> query.bind("decider_id", id.value()));
            return query.bind("now", now.toEpochMilli())
                    .bind("limit", limit)
                    .map(JdbiAccessRequestStore::map)
                    .list();
        });
    }

    @Override
    public List<AccessRequest> onClusters(Collection<ClusterId> clusters, Instant now, int limit) {
        if (clusters.isEmpty()) {
            return List.of();
        }
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE decider_id IS NULL AND cluster_id IN (<clusters>)" + DECIDERS_ORDER)
                .bindList("clusters", clusters.stream().map(ClusterId::value).toList())
                .bind("now", now.toEpochMilli())
                .bind("limit", limit)
                .map(JdbiAccessRequestStore::map)
                .list());
    }

    @Override
    public List<AccessRequest> askedBy(SubjectId subject, int limit) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE subject_id = :subject_id AND origin <> 'agent' ORDER BY created_at DESC, id LIMIT :limit")
                .bind("subject_id", subject.value())
                .bind("limit", limit)
                .map(JdbiAccessRequestStore::map)
                .list());
    }

    @Override
    public List<AccessRequest> askedBy(SubjectId subject, ClusterId cluster, int limit) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE subject_id = :subject_id AND cluster_id = :cluster_id AND origin <> 'agent' "
                        + "ORDER BY created_at DESC, id LIMIT :limit")
                .bind("subject_id", subject.value())
                .bind("cluster_id", cluster.value())
                .bind("limit", limit)
                .map(JdbiAccessRequestStore::map)
                .list());
    }

    @Override
    public Optional<AccessRequest> coveringAt(SubjectId subject, ClusterId cluster, Instant at) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE subject_id = :subject_id AND cluster_id = :cluster_id AND status = 'approved' "
                        + "AND session_id IS NULL AND decided_at <= :at "
                        + "AND COALESCE(ended_at, grant_expires_at) > :at ORDER BY decided_at DESC, id LIMIT 1")
                .bind("subject_id", subject.value())
                .bind("cluster_id", cluster.value())
                .bind("at", at.toEpochMilli())
                .map(JdbiAccessRequestStore::map)
                .findOne());
    }

    @Override
    public List<AccessRequest> madeGrants(Collection<String> grantIds) {
        if (grantIds.isEmpty()) {
            return List.of();
        }
        // A delegated agent's approved request names the person's grant that lends it: not made by it.
        return database.withHandle(handle -> handle.createQuery("SELECT " + SELECTED + " FROM access_requests "
                        + "WHERE status = 'approved' AND session_id IS NULL AND grant_id IN (<grants>)")
                .bindList("grants", List.copyOf(grantIds))
                .map(JdbiAccessRequestStore::map)
                .list());
    }

    @Override
    public java.util.Map<String, GrantOrigins.Origin> of(Collection<String> grantIds) {
        java.util.Map<String, GrantOrigins.Origin> origins = new java.util.LinkedHashMap<>();
        for (AccessRequest request : madeGrants(grantIds)) {
            origins.put(request.grantId().orElseThrow(), new GrantOrigins.Origin(request.id(),
                    request.course().origin().code(), request.reason(), request.decidedBy()));
        }
        return origins;
    }

    private static String qualified() {
        return "r." + COLUMNS.replace(", ", ", r.");
    }

    private static AccessRequest map(ResultSet row, StatementContext context) throws SQLException {
        Actor actor = new Actor(new SubjectId(row.getString("subject_id")),
                Optional.ofNullable(row.getString("credential_id")), Optional.ofNullable(row.getString("session_id")));
        Optional<Course.Decision> first = Optional.ofNullable(row.getString("first_by")).map(by -> {
            try {
                return new Course.Decision(by, Times.instant(row, "first_at").orElseThrow(),
                        Optional.ofNullable(row.getString("first_comment")));
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        Course course = new Course(Course.Origin.parse(row.getString("origin")),
                Optional.ofNullable(row.getString("eligible_id")), row.getInt("approvals_needed"), first,
                Optional.ofNullable(row.getString("comment")), Times.instant(row, "ended_at"),
                Optional.ofNullable(row.getString("ended_by")));
        return new AccessRequest(row.getString("id"), actor,
                Optional.ofNullable(row.getString("decider_id")).map(SubjectId::new),
                new ClusterId(row.getString("cluster_id")), new Scope(row.getString("scope")),
                Tier.fromCode(row.getString("role")).orElseThrow(), row.getInt("minutes"), row.getString("reason"),
                AccessStatus.parse(row.getString("status")), Times.instant(row, "created_at").orElseThrow(),
                Times.instant(row, "expires_at").orElseThrow(), Times.instant(row, "decided_at"),
                Optional.ofNullable(row.getString("decided_by")), Optional.ofNullable(row.getString("grant_id")),
                Times.instant(row, "grant_expires_at"), course);
    }
}
