package dev.klave.storage;

import java.util.function.Supplier;

/** The transaction boundary, as domain services see it. */
public interface Transactions {
    /** Runs {@code work} in one transaction that every store call on this thread joins. */
    <T> T inTransaction(Supplier<T> work);
}
