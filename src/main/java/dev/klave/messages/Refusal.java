package dev.klave.messages;

import static java.util.Objects.requireNonNull;

/**
 * A request refused for a reason the specification names. Thrown by domain code; the HTTP layer
 * answers with {@link #status()} and {@link #getMessage()} and logs nothing more, because a
 * refusal is an expected outcome, not a failure.
 */
public final class Refusal extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Message message;

    Refusal(Message message, String text) {
        super(requireNonNull(text, "text is null"), null, false, false);
        this.message = requireNonNull(message, "message is null");
    }

    public Message kind() {
        return message;
    }

    public int status() {
        return message.status();
    }
}
