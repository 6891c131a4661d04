package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Text;

/** What a notification tells; a destination chooses the kinds it wants. */
public enum Kind {
    /** An access request waits for a decision (a person's or an agent's). */
    ACCESS_WAITING("access.waiting", Text.NOTIFY_KIND_ACCESS_WAITING),
    /** An agent's write waits for a person's approval. */
    WRITE_WAITING("write.waiting", Text.NOTIFY_KIND_WRITE_WAITING),
    /** A request was decided (to its requester). */
    DECIDED("request.decided", Text.NOTIFY_KIND_DECIDED),
    /** Access is about to end (to its holder, 10 minutes before). */
    ACCESS_ENDING("access.ending", Text.NOTIFY_KIND_ACCESS_ENDING),
    /** Something administrators must look at: a cluster unreachable, a discovery or forge sync failing. */
    NOTICE("installation.notice", Text.NOTIFY_KIND_NOTICE);

    private final String code;
    private final Text description;

    Kind(String code, Text description) {
        this.code = requireNonNull(code, "code is null");
        this.description = requireNonNull(description, "description is null");
    }

    public String code() {
        return code;
    }

    public String description() {
        return description.text();
    }

    public static Kind parse(String code) {
        for (Kind kind : values()) {
            if (kind.code.equals(code)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown notification kind: " + code);
    }
}
