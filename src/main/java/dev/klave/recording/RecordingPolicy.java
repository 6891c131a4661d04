package dev.klave.recording;

/** A cluster's recording policy (issue 42). */
public enum RecordingPolicy {
    /** Nothing is recorded; sessions are audited as ever. */
    OFF("off"),
    /** Recorded; a session whose recording fails goes on, its recording marked (fail open). The default. */
    ON("on"),
    /** No recording, no session: refused when it cannot be recorded, ended when its recording fails. */
    REQUIRED("required");

    private final String code;

    RecordingPolicy(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    public static RecordingPolicy parse(String code) {
        for (RecordingPolicy policy : values()) {
            if (policy.code.equals(code)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("unknown recording policy: " + code);
    }
}
