package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.storage.UsedStateStore;
import java.time.Instant;

/** {@link UsedStateStore} in SQL: the hash's primary key settles races between replicas. */
public final class JdbiUsedStateStore implements UsedStateStore {
    private final Database database;

    public JdbiUsedStateStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public boolean use(String stateHash, Instant now, Instant forgetAfter) {
        return database.inTransaction(() -> database.withHandle(handle -> {
            handle.createUpdate("DELETE FROM used_sign_in_states WHERE forget_after < :now")
                    .bind("now", now.toEpochMilli())
                    .execute();
            return handle.createUpdate("INSERT INTO used_sign_in_states (state_hash, used_at, forget_after) "
                            + "VALUES (:state_hash, :now, :forget_after) ON CONFLICT (state_hash) DO NOTHING")
                    .bind("state_hash", stateHash)
                    .bind("now", now.toEpochMilli())
                    .bind("forget_after", forgetAfter.toEpochMilli())
                    .execute() == 1;
        }));
    }

    @Override
    public boolean used(String stateHash, Instant now) {
        return database.withHandle(handle -> handle.createQuery("SELECT 1 FROM used_sign_in_states "
                        + "WHERE state_hash = :state_hash AND forget_after >= :now")
                .bind("state_hash", stateHash)
                .bind("now", now.toEpochMilli())
                .mapTo(Integer.class)
                .findOne()
                .isPresent());
    }
}
