package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

/**
 * What a test scripts of the simulated kubelet: log lines and container restarts. Lines are timed
 * by the simulator's clock, so a test with a movable clock can check {@code sinceSeconds}.
 *
 * <pre>{@code
 * cluster.pods().appendLog("default", "web", "app", "boom");
 * cluster.pods().restartContainer("default", "web", "app", 1);   // logs?previous=true now answers "…boom"
 * }</pre>
 *
 * A pod seeded with the annotation {@value PodLogs#PREVIOUS_LOG_ANNOTATION} (lines separated by
 * newlines) has that previous log from the start, as {@value PodLogs#LOG_ANNOTATION} scripts the
 * current one.
 */
public final class SimulatorPods {
    private final PodRuntime pods;

    SimulatorPods(PodRuntime pods) {
        this.pods = requireNonNull(pods, "pods is null");
    }

    /** Adds a line, written now, to a container's log; {@code follow=true} readers receive it at once. */
    public void appendLog(String namespace, String pod, String container, String line) {
        pods.appendLog(requireNonNull(namespace, "namespace is null"), requireNonNull(pod, "pod is null"),
                requireNonNull(container, "container is null"), requireNonNull(line, "line is null"));
    }

    /**
     * The container exits with {@code exitCode} and starts again: its restartCount and lastState
     * change, its log so far becomes the previous log, and followers of the old log reach its end.
     */
    public void restartContainer(String namespace, String pod, String container, int exitCode) {
        pods.restart(requireNonNull(namespace, "namespace is null"), requireNonNull(pod, "pod is null"),
                requireNonNull(container, "container is null"), exitCode);
    }
}
