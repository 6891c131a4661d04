package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import dev.klave.gateway.Exchanged;
import java.util.Optional;

/**
 * The cluster answered 4xx or 5xx (spec 3 §7 "Tool results"): the result's text is the code, the
 * reason and the message of the Kubernetes {@code Status}, then the audit id; a 403 adds the hint
 * about {@code request_access} — the cluster's 403 only, never a refusal of Klave's.
 */
final class ClusterRefusal extends Exception {
    static final String ACCESS_HINT = "Your role does not allow this operation: report it to the person, or ask for "
            + "a role with request_access.";

    private final int status;
    private final String reason;
    private final String auditId;

    ClusterRefusal(int status, String reason, String message, String auditId) {
        super(requireNonNull(message, "message is null"), null, false, false);
        this.status = status;
        this.reason = requireNonNull(reason, "reason is null");
        this.auditId = requireNonNull(auditId, "auditId is null");
    }

    static ClusterRefusal of(Exchanged.Answered answered) {
        Optional<Exchanged.KubeStatus> status = answered.failure();
        String message = status.map(Exchanged.KubeStatus::message).filter(text -> !text.isEmpty())
                .orElseGet(() -> firstLine(answered.text()));
        String reason = status.map(Exchanged.KubeStatus::reason).filter(text -> !text.isEmpty()).orElse("");
        return new ClusterRefusal(answered.status(), reason, message, answered.auditId());
    }

    int status() {
        return status;
    }

    String reason() {
        return reason;
    }

    String auditId() {
        return auditId;
    }

    /** The error result's text. */
    String text() {
        StringBuilder text = new StringBuilder().append(status);
        if (!reason.isEmpty()) {
            text.append(' ').append(reason);
        }
        text.append(": ").append(getMessage()).append("\naudit id: ").append(auditId);
        if (status == 403) {
            text.append('\n').append(ACCESS_HINT);
        }
        return text.toString();
    }

    private static String firstLine(String body) {
        String line = body.strip().lines().findFirst().orElse("");
        return line.length() > 500 ? line.substring(0, 500) : line;
    }
}
