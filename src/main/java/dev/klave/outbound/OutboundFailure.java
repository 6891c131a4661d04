package dev.klave.outbound;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/** A call out that brought no complete answer; {@link #kind()} says why, the message says it safely for a log. */
public final class OutboundFailure extends IOException {
    private static final long serialVersionUID = 1L;

    /** Why the call failed. */
    public enum Kind {
        /** No complete answer (head and body) within the call's deadline. */
        DEADLINE,
        /** The answer passed the size limit (declared, or counted while reading). */
        TOO_LARGE,
        /** Anything else: refused or reset connection, TLS, an unknown host, an interrupt. */
        FAILED,
        /**
         * The host's addresses include one the {@link AddressPolicy} does not permit: no connection
         * was opened ({@link PinnedHttps} only).
         */
        ADDRESS_REFUSED
    }

    private final Kind kind;

    OutboundFailure(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = requireNonNull(kind, "kind is null");
    }

    public Kind kind() {
        return kind;
    }
}
