package dev.klave.audit;

import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Audit-IDs as time-ordered UUIDs (version 7, RFC 9562 §5.7): 48 bits of Unix milliseconds, then
 * 74 random bits. Rows written one after another then sit next to each other in the audit table's
 * key index, so the insert and the later completion of each request touch the same few recent
 * pages instead of a random page of an ever larger index (bench/RESULTS.md). An Audit-ID names a
 * row; it grants nothing (every read of a row checks who asks), so it needs no secure randomness.
 */
public final class AuditIds {
    private final Clock clock;

    public AuditIds(Clock clock) {
        this.clock = java.util.Objects.requireNonNull(clock, "clock is null");
    }

    /**
     * Whether {@code text} could name an audit row: every Audit-ID is a UUID in canonical text
     * (RFC 9562 §4: lowercase hex, 8-4-4-4-12), which orders as its 16 bytes do — the same listing
     * order whether a database keeps the bytes (V37) or the text. Checked for every row and
     * completion written, hence by hand rather than by a regular expression.
     */
    public static boolean wellFormed(String text) {
        if (text == null || text.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = text.charAt(i);
            boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
            if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    public String next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long millis = clock.millis() & 0xFFFF_FFFF_FFFFL;
        long high = (millis << 16) | 0x7000L | (random.nextLong() & 0x0FFFL);
        long low = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(high, low).toString();
    }
}
