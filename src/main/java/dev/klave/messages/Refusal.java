package dev.klave.messages;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * A request refused for a reason the specification names. Thrown by domain code; the HTTP layer
 * answers with {@link #status()} and {@link #getMessage()} and logs nothing more, because a
 * refusal is an expected outcome, not a failure. A refusal of a limit says when a call will be
 * served again ({@link #retryAfter()}): the HTTP layer sends it as {@code Retry-After} (RFC 9110
 * §10.2.3), in whole seconds rounded up.
 */
public final class Refusal extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Message message;
    private final transient Optional<Duration> retryAfter;

    Refusal(Message message, String text) {
        this(message, text, Optional.empty());
    }

    private Refusal(Message message, String text, Optional<Duration> retryAfter) {
        super(requireNonNull(text, "text is null"), null, false, false);
        this.message = requireNonNull(message, "message is null");
        this.retryAfter = requireNonNull(retryAfter, "retryAfter is null");
    }

    public Message kind() {
        return message;
    }

    public int status() {
        return message.status();
    }

    /** The same refusal, saying a call is served again after {@code wait}. */
    public Refusal retryingAfter(Duration wait) {
        requireNonNull(wait, "wait is null");
        if (wait.isNegative()) {
            throw new IllegalArgumentException("a wait is not negative");
        }
        return new Refusal(message, getMessage(), Optional.of(wait));
    }

    public Optional<Duration> retryAfter() {
        return retryAfter;
    }

    /** {@code Retry-After}'s value: whole seconds, rounded up, at least 1 (RFC 9110 §10.2.3). */
    public Optional<String> retryAfterSeconds() {
        return retryAfter.map(wait -> String.valueOf(Math.max(1,
                wait.toSeconds() + (wait.toNanosPart() > 0 ? 1 : 0))));
    }
}
