package dev.klave.recording;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.Optional;

/**
 * One recorded exec or attach session: whose it is, where it ran and what, its terminal, whether
 * stdin is in it, and how its recording stands.
 *
 * @param id the audit id of the request that opened the session
 */
public record Recording(String id, Owner owner, Target target, Terminal terminal, Stdin stdin, Instant startedAt,
        Progress progress) {
    public Recording {
        requireNonNull(id, "id is null");
        requireNonNull(owner, "owner is null");
        requireNonNull(target, "target is null");
        requireNonNull(terminal, "terminal is null");
        requireNonNull(stdin, "stdin is null");
        requireNonNull(startedAt, "startedAt is null");
        requireNonNull(progress, "progress is null");
    }

    /** A session's recording as it starts: {@link Progress#STARTED}. */
    public static Recording started(String id, Owner owner, Target target, Terminal terminal, Stdin stdin,
            Instant startedAt) {
        return new Recording(id, owner, target, terminal, stdin, startedAt, Progress.STARTED);
    }

    /** Who opened the session: a person or an agent, and their login then (kept if it changes later). */
    public record Owner(SubjectId subject, String login) {
        public Owner {
            requireNonNull(subject, "subject is null");
            requireNonNull(login, "login is null");
        }
    }

    /** Where the session ran and what: the pod's container (empty: the pod's default) and the command. */
    public record Target(ClusterId cluster, String namespace, String pod, Optional<String> container, String command) {
        public Target {
            requireNonNull(cluster, "cluster is null");
            requireNonNull(namespace, "namespace is null");
            requireNonNull(pod, "pod is null");
            requireNonNull(container, "container is null");
            requireNonNull(command, "command is null");
        }
    }

    /**
     * How the recording stands: its state — {@code recording} while it runs; then {@code complete},
     * {@code incomplete} (a frame could not be read, or the writer fell behind: see {@code reason}) or
     * {@code truncated} (the cap) — the bytes of asciicast stored, and its end with the session's
     * exit code when the cluster said it.
     */
    public record Progress(State state, Optional<String> reason, long bytes, Optional<Instant> endedAt,
            Optional<Integer> exitCode) {
        /** A recording that has just begun: nothing stored yet, no end. */
        public static final Progress STARTED = new Progress(State.RECORDING, Optional.empty(), 0, Optional.empty(),
                Optional.empty());

        public Progress {
            requireNonNull(state, "state is null");
            requireNonNull(reason, "reason is null");
            requireNonNull(endedAt, "endedAt is null");
            requireNonNull(exitCode, "exitCode is null");
            if (bytes < 0) {
                throw new IllegalArgumentException("a recording of " + bytes + " bytes");
            }
        }
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
