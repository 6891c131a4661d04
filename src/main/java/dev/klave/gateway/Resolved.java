package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import java.util.function.LongFunction;

/**
 * A bearer as its edge resolved it, and how to resolve it afresh: one kept in memory may be stale,
 * so a full check never trusts it and reads it again ({@link BearerResolver}), given the access
 * generation the check read before it.
 */
public record Resolved(Bearer bearer, LongFunction<Bearer> again) {
    public Resolved {
        requireNonNull(bearer, "bearer is null");
        requireNonNull(again, "again is null");
    }

    /** A bearer just read from its source: it is its own fresh reading. */
    public static Resolved fresh(Bearer bearer) {
        return new Resolved(bearer, generation -> bearer);
    }
}
