package dev.klave.recording;

import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.Map;

/** Storage of clusters' recording policies; a cluster without one records ({@link RecordingPolicy#ON}). */
public interface RecordingPolicyStore {
    /** Every cluster's that has one. */
    Map<ClusterId, RecordingPolicy> all();

    void save(ClusterId cluster, RecordingPolicy policy, Instant at, String by);
}
