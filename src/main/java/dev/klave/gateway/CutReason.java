package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;

/**
 * Why Klave cut an open call (spec 1 §3, §7: within 10 s of a revocation, at shutdown), as a type:
 * what the call's audit row says of it is {@link #text()}, and what the client of a call still
 * waiting for its answer is told is {@link #refusal()}.
 */
public enum CutReason {
    /** Its bearer stopped admitting it: revoked, expired, its owner disabled, a grant it was admitted with gone. */
    ACCESS(Message.AUDIT_STREAM_CUT, Message.CREDENTIAL_NO_LONGER_VALID),
    /** Its check could not be made for longer than the guard's grace: the database is away. */
    DATABASE(Message.AUDIT_STREAM_CUT_DATABASE, Message.CREDENTIAL_NO_LONGER_VALID),
    /** Its check failed for a reason no one foresaw (a defect): nothing says it still holds. */
    CHECK_FAILED(Message.AUDIT_STREAM_CUT_CHECK_FAILED, Message.CREDENTIAL_NO_LONGER_VALID),
    /** The replica is stopping. */
    SHUTDOWN(Message.AUDIT_RESTARTING, Message.RESTARTING);

    private final Message row;
    private final Message answer;

    CutReason(Message row, Message answer) {
        this.row = requireNonNull(row, "row is null");
        this.answer = requireNonNull(answer, "answer is null");
    }

    /** What the call's audit row says of the cut. */
    public String text() {
        return row.text();
    }

    public Message rowMessage() {
        return row;
    }

    /** What a client still waiting for its answer is answered with. */
    public Message refusal() {
        return answer;
    }
}
