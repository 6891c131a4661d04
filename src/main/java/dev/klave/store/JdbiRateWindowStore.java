package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.storage.RateWindowStore;
import java.time.Duration;
import java.time.Instant;

/**
 * {@link RateWindowStore} in SQL: a row per bucket and second (the upsert's row lock orders
 * concurrent hits of the same second), the span summed, so replicas count together.
 */
public final class JdbiRateWindowStore implements RateWindowStore {
    private final Database database;

    public JdbiRateWindowStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public int hit(String bucket, Instant at, Duration span) {
        long second = at.getEpochSecond() * 1000;
        long from = at.minus(span).toEpochMilli();
        return database.inTransaction(() -> database.withHandle(handle -> {
            handle.createUpdate("DELETE FROM rate_windows WHERE bucket = :bucket AND window_start <= :from")
                    .bind("bucket", bucket)
                    .bind("from", from)
                    .execute();
            handle.createUpdate("INSERT INTO rate_windows (bucket, window_start, hits) "
                            + "VALUES (:bucket, :window_start, 1) "
                            + "ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_windows.hits + 1")
                    .bind("bucket", bucket)
                    .bind("window_start", second)
                    .execute();
            long hits = handle.createQuery("SELECT COALESCE(SUM(hits), 0) FROM rate_windows "
                            + "WHERE bucket = :bucket AND window_start > :from")
                    .bind("bucket", bucket)
                    .bind("from", from)
                    .mapTo(Long.class)
                    .one();
            return (int) Math.min(hits, Integer.MAX_VALUE);
        }));
    }
}
