package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.agent.approval.AccessPolicy;
import dev.klave.agent.approval.AccessPolicyStore;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;

/** {@link AccessPolicyStore} in SQL: a row per cluster with a policy of its own, its deciders beside it. */
public final class JdbiAccessPolicyStore implements AccessPolicyStore {
    private final Database database;

    public JdbiAccessPolicyStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public AccessPolicy find(ClusterId cluster) {
        return database.withHandle(handle -> {
            var deciders = new HashSet<>(handle.createQuery("SELECT subject_id FROM access_deciders "
                            + "WHERE cluster_id = :cluster_id")
                    .bind("cluster_id", cluster.value())
                    .map((row, context) -> new SubjectId(row.getString("subject_id")))
                    .list());
            return handle.createQuery("SELECT max_minutes, two_approvals FROM access_policies "
                            + "WHERE cluster_id = :cluster_id")
                    .bind("cluster_id", cluster.value())
                    .map((row, context) -> new AccessPolicy(cluster, row.getInt("max_minutes"),
                            row.getBoolean("two_approvals"), deciders))
                    .findOne()
                    .orElseGet(() -> new AccessPolicy(cluster, AccessPolicy.DEFAULT_MAX_MINUTES, false, deciders));
        });
    }

    @Override
    public void save(AccessPolicy policy, Instant at, String by) {
        database.inTransaction(() -> database.withHandle(handle -> {
            handle.createUpdate("DELETE FROM access_policies WHERE cluster_id = :cluster_id")
                    .bind("cluster_id", policy.cluster().value()).execute();
            handle.createUpdate("INSERT INTO access_policies (cluster_id, max_minutes, two_approvals, updated_at, "
                            + "updated_by) VALUES (:cluster_id, :max_minutes, :two_approvals, :at, :by)")
                    .bind("cluster_id", policy.cluster().value())
                    .bind("max_minutes", policy.maxMinutes())
                    .bind("two_approvals", policy.twoApprovals())
                    .bind("at", at.toEpochMilli())
                    .bind("by", by)
                    .execute();
            handle.createUpdate("DELETE FROM access_deciders WHERE cluster_id = :cluster_id")
                    .bind("cluster_id", policy.cluster().value()).execute();
            for (SubjectId decider : policy.deciders()) {
                handle.createUpdate("INSERT INTO access_deciders (cluster_id, subject_id) VALUES (:cluster_id, "
                                + ":subject_id)")
                        .bind("cluster_id", policy.cluster().value())
                        .bind("subject_id", decider.value())
                        .execute();
            }
            return null;
        }));
    }

    @Override
    public List<ClusterId> decidedBy(SubjectId person) {
        return database.withHandle(handle -> handle.createQuery("SELECT cluster_id FROM access_deciders "
                        + "WHERE subject_id = :subject_id ORDER BY cluster_id")
                .bind("subject_id", person.value())
                .map((row, context) -> new ClusterId(row.getString("cluster_id")))
                .list());
    }
}
