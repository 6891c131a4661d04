package dev.klave.recording;

import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.Map;

/** Storage of clusters' recording settings; a cluster without any records ({@link ClusterRecording#DEFAULT}). */
public interface RecordingPolicyStore {
    /** Every cluster's that has them. */
    Map<ClusterId, ClusterRecording> all();

    void save(ClusterId cluster, ClusterRecording recording, Instant at, String by);
}
