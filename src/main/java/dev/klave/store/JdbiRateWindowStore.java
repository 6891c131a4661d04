package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.storage.RateWindowStore;
import java.time.Instant;

/** {@link RateWindowStore} in SQL: one upsert per hit, so replicas count together. */
public final class JdbiRateWindowStore implements RateWindowStore {
    private final Database database;

    public JdbiRateWindowStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public int hit(String bucket, Instant windowStart, Instant forgetBefore) {
        return database.inTransaction(() -> database.withHandle(handle -> {
            handle.createUpdate("DELETE FROM rate_windows WHERE bucket = :bucket AND window_start < :forget")
                    .bind("bucket", bucket)
                    .bind("forget", forgetBefore.toEpochMilli())
                    .execute();
            return handle.createQuery("INSERT INTO rate_windows (bucket, window_start, hits) "
                            + "VALUES (:bucket, :window_start, 1) "
                            + "ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_windows.hits + 1 "
                            + "RETURNING hits")
                    .bind("bucket", bucket)
                    .bind("window_start", windowStart.toEpochMilli())
                    .mapTo(Integer.class)
                    .one();
        }));
    }
}
