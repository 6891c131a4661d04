package dev.klave.recording;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.Optional;

/**
 * One recorded exec or attach session: who, where, what, and how its recording stands.
 *
 * @param id the audit id of the request that opened the session
 * @param state {@code recording} while it runs; then {@code complete}, {@code incomplete} (a frame
 *     could not be read, or the writer fell behind: see {@code reason}) or {@code truncated} (the cap)
 */
public record Recording(String id, SubjectId subject, String subjectLogin, ClusterId cluster, String namespace,
        String pod, Optional<String> container, String command, boolean tty, boolean stdinRecorded,
        Instant startedAt, Optional<Instant> endedAt, State state, Optional<String> reason, long bytes, int width,
        int height, Optional<Integer> exitCode) {
    public Recording {
        requireNonNull(id, "id is null");
        requireNonNull(subject, "subject is null");
        requireNonNull(subjectLogin, "subjectLogin is null");
        requireNonNull(cluster, "cluster is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(pod, "pod is null");
        requireNonNull(container, "container is null");
        requireNonNull(command, "command is null");
        requireNonNull(startedAt, "startedAt is null");
        requireNonNull(endedAt, "endedAt is null");
        requireNonNull(state, "state is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(exitCode, "exitCode is null");
    }

    /** How a recording stands. */
    public enum State {
        RECORDING("recording"), COMPLETE("complete"), INCOMPLETE("incomplete"), TRUNCATED("truncated");

        private final String code;

        State(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }

        public static State parse(String code) {
            for (State state : values()) {
                if (state.code.equals(code)) {
                    return state;
                }
            }
            throw new IllegalArgumentException("unknown recording state: " + code);
        }
    }
}
