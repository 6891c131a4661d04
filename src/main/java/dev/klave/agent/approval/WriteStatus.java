package dev.klave.agent.approval;

/** The states of a write request (spec 3 §3 "Write request"), as stored and shown. */
public enum WriteStatus {
    PENDING("pending"),
    APPROVED("approved"),
    DENIED("denied"),
    EXPIRED("expired"),
    EXECUTED("executed");

    private final String code;

    WriteStatus(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** The status stored as {@code code}; anything else is refused. */
    public static WriteStatus parse(String code) {
        for (WriteStatus status : values()) {
            if (status.code.equals(code)) {
                return status;
            }
        }
        throw new IllegalArgumentException("unknown write request status: " + code);
    }
}
