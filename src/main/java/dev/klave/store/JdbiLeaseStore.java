package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.storage.LeaseStore;
import java.time.Duration;
import java.time.Instant;

/**
 * {@link LeaseStore} as rows. The acquire is one upsert whose update only applies when the lease
 * is expired or already ours, so two replicas racing for it cannot both win: the loser's
 * statement changes no row.
 */
public final class JdbiLeaseStore implements LeaseStore {
    private final Database database;

    public JdbiLeaseStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public boolean tryAcquire(String name, String holder, Instant now, Duration ttl) {
        requireNonNull(name, "name is null");
        requireNonNull(holder, "holder is null");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive");
        }
        int changed = database.write(handle -> handle.createUpdate("INSERT INTO leases (name, holder, expires_at) "
                        + "VALUES (:name, :holder, :expires_at) "
                        + "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at "
                        + "WHERE leases.expires_at <= :now OR leases.holder = excluded.holder")
                .bind("name", name)
                .bind("holder", holder)
                .bind("now", now.toEpochMilli())
                .bind("expires_at", now.plus(ttl).toEpochMilli())
                .execute());
        return changed == 1;
    }

    @Override
    public void release(String name, String holder) {
        database.write(handle -> handle.createUpdate("DELETE FROM leases WHERE name = :name AND holder = :holder")
                .bind("name", name)
                .bind("holder", holder)
                .execute());
    }
}
