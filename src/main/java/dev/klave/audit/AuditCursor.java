package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * Where a page of the audit listing ended: the last row's time and Audit-ID, the listing's own
 * order (issue 32: keyset pagination). The next page starts strictly after it, so rows written
 * meanwhile — always newer — neither shift it nor repeat in it, and a deep page costs what the
 * first does. Opaque to clients (base64url); a cursor that does not decode is 400.
 */
public record AuditCursor(Instant at, String id) {
    public AuditCursor {
        requireNonNull(at, "at is null");
        requireNonNull(id, "id is null");
        if (!AuditIds.wellFormed(id)) {
            throw new IllegalArgumentException("not an Audit-ID");
        }
    }

    /** The cursor after {@code row}. */
    public static AuditCursor after(AuditRow row) {
        return new AuditCursor(row.at(), row.id());
    }

    public String encode() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((at.toEpochMilli() + ":" + id)
                .getBytes(StandardCharsets.US_ASCII));
    }

    /** @throws dev.klave.messages.Refusal 400 {@code CURSOR_INVALID} for anything this class did not encode */
    public static AuditCursor decode(String text) {
        try {
            String plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.US_ASCII);
            int colon = plain.indexOf(':');
            return new AuditCursor(Instant.ofEpochMilli(Long.parseLong(plain.substring(0, colon))),
                    plain.substring(colon + 1));
        } catch (RuntimeException e) {
            throw Message.CURSOR_INVALID.refusal();
        }
    }
}
