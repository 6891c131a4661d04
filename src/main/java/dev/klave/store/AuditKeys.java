package dev.klave.store;

import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * An Audit-ID as each database keeps it since V37 (issue 44: 16 bytes instead of 37 in the audit's
 * tables and in every one of its indexes): PostgreSQL's {@code uuid}, bound as a {@link UUID};
 * SQLite's 16-byte {@code BLOB}, bound as the UUID's bytes, most significant first. Both order as
 * the canonical text does, so listings, cursors and the prune keep their order. Callers pass only
 * well-formed ids ({@code AuditIds.wellFormed}): every Audit-ID is a UUID.
 */
public final class AuditKeys {
    private AuditKeys() {}

    /** {@code id} as the key column of {@code dialect} takes it in a statement. */
    public static Object bound(Dialect dialect, String id) {
        UUID uuid = UUID.fromString(id);
        return dialect == Dialect.POSTGRES ? uuid : bytes(uuid);
    }

    static byte[] bytes(String id) {
        return bytes(UUID.fromString(id));
    }

    /** The canonical text of a key column's value as the driver reads it: PostgreSQL's UUID, SQLite's bytes. */
    public static String text(Object stored) {
        return switch (stored) {
            case UUID uuid -> uuid.toString();
            case byte[] bytes when bytes.length == 16 -> {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                yield new UUID(buffer.getLong(), buffer.getLong()).toString();
            }
            default -> throw new IllegalStateException("not an Audit-ID as stored: " + stored.getClass().getSimpleName());
        };
    }

    private static byte[] bytes(UUID uuid) {
        return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits()).array();
    }
}
