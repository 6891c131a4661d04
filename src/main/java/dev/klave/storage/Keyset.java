package dev.klave.storage;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * Where the next page of a listing ordered newest first starts: after the row created at
 * {@code createdAt} with id {@code id} (rows created in the same millisecond follow in id order).
 * A store reads from here on with an index on {@code (created_at DESC, id)}, never with OFFSET.
 */
public record Keyset(Instant createdAt, String id) {
    public Keyset {
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(id, "id is null");
    }
}
