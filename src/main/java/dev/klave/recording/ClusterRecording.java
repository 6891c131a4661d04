package dev.klave.recording;

import static java.util.Objects.requireNonNull;

/**
 * How a cluster's sessions are recorded: its policy (issue 42) and whether what is typed (stdin) is
 * recorded too — off unless an administrator asks for it (issue 51 §17, from issue 42).
 */
public record ClusterRecording(RecordingPolicy policy, Stdin stdin) {
    /** A cluster without settings of its own: recorded (on), stdin not. */
    public static final ClusterRecording DEFAULT = new ClusterRecording(RecordingPolicy.ON, Stdin.NOT_RECORDED);

    public ClusterRecording {
        requireNonNull(policy, "policy is null");
        requireNonNull(stdin, "stdin is null");
    }
}
