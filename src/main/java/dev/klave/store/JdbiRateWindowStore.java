package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.storage.RateWindowStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * {@link RateWindowStore} in SQL: a row per bucket and second, stale rows of the bucket dropped as
 * it is counted. One transaction per call: on PostgreSQL it first takes a transaction-scoped
 * advisory lock of the bucket, so replicas counting one bucket at once check and count one after
 * the other (SQLite's one writer does so already) and the limit holds exactly.
 */
public final class JdbiRateWindowStore implements RateWindowStore {
    private final Database database;

    public JdbiRateWindowStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    /** One second's count of a bucket. */
    private record Second(long start, long hits) {}

    @Override
    public Optional<Duration> admit(String bucket, Instant at, Duration span, int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("a limit is positive");
        }
        long second = at.getEpochSecond() * 1000;
        long from = at.minus(span).toEpochMilli();
        return database.inTransaction(() -> database.withHandle(handle -> {
            if (database.dialect() == Dialect.POSTGRES) {
                handle.createQuery("SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtextextended(:bucket, 0))) locked")
                        .bind("bucket", bucket)
                        .mapTo(Integer.class)
                        .one();
            }
            handle.createUpdate("DELETE FROM rate_windows WHERE bucket = :bucket AND window_start <= :from")
                    .bind("bucket", bucket)
                    .bind("from", from)
                    .execute();
            List<Second> counted = handle.createQuery("SELECT window_start, hits FROM rate_windows "
                            + "WHERE bucket = :bucket ORDER BY window_start")
                    .bind("bucket", bucket)
                    .map((row, context) -> new Second(row.getLong("window_start"), row.getLong("hits")))
                    .list();
            long served = counted.stream().mapToLong(Second::hits).sum();
            if (served >= limit) {
                return Optional.of(waitFor(counted, served - limit + 1, at, span));
            }
            handle.createUpdate("INSERT INTO rate_windows (bucket, window_start, hits) "
                            + "VALUES (:bucket, :window_start, 1) "
                            + "ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_windows.hits + 1")
                    .bind("bucket", bucket)
                    .bind("window_start", second)
                    .execute();
            return Optional.<Duration>empty();
        }));
    }

    /**
     * How long until {@code excess} of the counted calls have left the span: the second in which
     * the last of them was counted, plus the span, is when a call is served again.
     */
    private static Duration waitFor(List<Second> counted, long excess, Instant at, Duration span) {
        long leaving = 0;
        for (Second one : counted) {
            leaving += one.hits();
            if (leaving >= excess) {
                // A call counted in the second that starts at s counts while s > now - span.
                Instant free = Instant.ofEpochMilli(one.start()).plus(span);
                Duration wait = Duration.between(at, free);
                return wait.isNegative() ? Duration.ZERO : wait;
            }
        }
        return span;
    }
}
