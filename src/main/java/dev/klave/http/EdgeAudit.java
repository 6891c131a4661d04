package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.crypto.TokenHash;
import dev.klave.crypto.TokenKind;
import java.net.InetAddress;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The audit row of a request refused before any route took it: by the request decoder (bad
 * framing, a line or head too long), or because it asks for HTTP/2 without TLS. Spec 1 §1.3 wants
 * one row per request, and a client holding an {@code Audit-ID} must find it with
 * {@code GET /api/audit/{id}}. Implemented where audit rows are written.
 */
public interface EdgeAudit {
    /** Starts writing the row; the edge answers once {@link Recorded#durable()} is done, either way. */
    Recorded record(Refused refused);

    /** The row's Audit-ID, and its write (bounded in time; failed if the row could not be written). */
    record Recorded(String auditId, CompletionStage<?> durable) {
        public Recorded {
            requireNonNull(auditId, "auditId is null");
            requireNonNull(durable, "durable is null");
        }
    }

    /**
     * What is known of a refused request.
     *
     * @param target the request target as received (the decoder's placeholder when it could not read one)
     * @param bearer the hash of the bearer token it carried, so that a known credential is named in
     *     the row — the hash and not the header, so that nothing printing this record prints a token
     */
    record Refused(String method, String target, InetAddress client, Optional<TokenHash> bearer, int status,
            String error) {
        public Refused {
            requireNonNull(method, "method is null");
            requireNonNull(target, "target is null");
            requireNonNull(client, "client is null");
            requireNonNull(bearer, "bearer is null");
            requireNonNull(error, "error is null");
        }

        /** The bearer of an {@code Authorization} header shaped like {@code Bearer klt_…}; empty otherwise. */
        public static Optional<TokenHash> bearerOf(Optional<String> authorization) {
            return TokenHash.ofBearer(authorization, TokenKind.CREDENTIAL);
        }
    }
}
