package dev.klave.agent.approval;

/**
 * The states of an access request. Spec 3 §3 shows none beyond approved; these are the write
 * request's, less execution: an approved request has done its work once its grant exists.
 */
public enum AccessStatus {
    PENDING("pending"),
    APPROVED("approved"),
    DENIED("denied"),
    EXPIRED("expired");

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
