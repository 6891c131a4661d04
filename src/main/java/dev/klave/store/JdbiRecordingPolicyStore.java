package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.ClusterId;
import dev.klave.recording.ClusterRecording;
import dev.klave.recording.RecordingPolicy;
import dev.klave.recording.RecordingPolicyStore;
import dev.klave.recording.Stdin;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@link RecordingPolicyStore} in SQL. */
public final class JdbiRecordingPolicyStore implements RecordingPolicyStore {
    private final Database database;

    public JdbiRecordingPolicyStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public Map<ClusterId, ClusterRecording> all() {
        Map<ClusterId, ClusterRecording> policies = new LinkedHashMap<>();
        database.withHandle(handle -> handle.createQuery("SELECT cluster_id, policy, stdin FROM recording_policies "
                        + "ORDER BY cluster_id")
                .map((row, context) -> Map.entry(new ClusterId(row.getString("cluster_id")),
                        new ClusterRecording(RecordingPolicy.parse(row.getString("policy")),
                                Stdin.of(row.getBoolean("stdin")))))
                .list()).forEach(entry -> policies.put(entry.getKey(), entry.getValue()));
        return policies;
    }

    @Override
    public void save(ClusterId cluster, ClusterRecording recording, Instant at, String by) {
        database.inTransaction(() -> database.withHandle(handle -> {
            handle.createUpdate("DELETE FROM recording_policies WHERE cluster_id = :cluster")
                    .bind("cluster", cluster.value()).execute();
            return handle.createUpdate("INSERT INTO recording_policies (cluster_id, policy, stdin, updated_at, updated_by) "
                            + "VALUES (:cluster, :policy, :stdin, :at, :by)")
                    .bind("cluster", cluster.value())
                    .bind("policy", recording.policy().code())
                    .bind("stdin", recording.stdin().recorded())
                    .bind("at", at.toEpochMilli())
                    .bind("by", by)
                    .execute();
        }));
    }
}
