package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;

/**
 * Why the request decoder refused a request (RFC 9112): thrown inside Netty's decoding, which
 * turns it into a failed decoder result; the edge then answers with {@link #message()}'s status
 * and text and closes the connection.
 */
final class MalformedRequest extends RuntimeException {
    private final Message message;
    private final String text;

    MalformedRequest(Message message, Object... parts) {
        super(message.text(parts), null, false, false);
        this.message = requireNonNull(message, "message is null");
        this.text = message.text(parts);
    }

    Message message() {
        return message;
    }

    int status() {
        return message.status();
    }

    String text() {
        return text;
    }
}
