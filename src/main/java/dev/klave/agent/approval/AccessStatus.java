package dev.klave.agent.approval;

/**
 * The states of an access request. Spec 3 §3 shows none beyond approved; these are the write
 * request's, less execution: an approved request has done its work once its grant exists; and a
 * requester may withdraw one that waits (issue 41).
 */
public enum AccessStatus {
    PENDING("pending"),
    APPROVED("approved"),
    DENIED("denied"),
    EXPIRED("expired"),
    /** Withdrawn by its requester while it waited (issue 41). */
    CANCELLED("cancelled");

    private final String code;

    AccessStatus(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** The status stored as {@code code}; anything else is refused. */
    public static AccessStatus parse(String code) {
        for (AccessStatus status : values()) {
            if (status.code.equals(code)) {
                return status;
            }
        }
        throw new IllegalArgumentException("unknown access request status: " + code);
    }
}
