/**
 * Storage: the JDBC implementations of the domain packages' store interfaces, the two SQL
 * dialects (SQLite, PostgreSQL) and their Flyway migrations.
 *
 * <p>Every store method is one statement or one transaction. Callers that must change several
 * aggregates at once wrap the calls in {@link dev.klave.store.Database#inTransaction}; the stores
 * then join that transaction, because Jdbi hands nested calls on the same thread the handle that is
 * already open. A store method that writes outside its caller's transaction runs through
 * {@link dev.klave.store.Database#write}: on SQLite writers take turns in Java ({@code SqliteWriters}),
 * so a busy database is a wait — never SQLite's busy handler sleeping on a virtual thread's carrier,
 * never a 500. Nothing that must hold across replicas lives in process memory: coordination goes
 * through rows ({@link dev.klave.storage.LeaseStore}).
 *
 * <p>Backend-specific behaviour stays here: no other package knows which dialect is in use.
 */
package dev.klave.store;
