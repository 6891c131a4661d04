package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.ci.ExchangedTokenStore;
import java.time.Instant;

/** {@link ExchangedTokenStore} in SQL: the {@code jti} primary key settles races between replicas. */
public final class JdbiExchangedTokenStore implements ExchangedTokenStore {
    private final Database database;

    public JdbiExchangedTokenStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public boolean exchanged(String jti) {
        return database.withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM ci_exchanged_tokens "
                        + "WHERE jti = :jti")
                .bind("jti", jti)
                .mapTo(Integer.class)
                .one()) > 0;
    }

    @Override
    public boolean spend(String jti, Instant now, Instant forgetAfter) {
        return database.inTransaction(() -> database.withHandle(handle -> {
            handle.createUpdate("DELETE FROM ci_exchanged_tokens WHERE forget_after < :now")
                    .bind("now", now.toEpochMilli())
                    .execute();
            return handle.createUpdate("INSERT INTO ci_exchanged_tokens (jti, exchanged_at, forget_after) "
                            + "VALUES (:jti, :now, :forget_after) ON CONFLICT (jti) DO NOTHING")
                    .bind("jti", jti)
                    .bind("now", now.toEpochMilli())
                    .bind("forget_after", forgetAfter.toEpochMilli())
                    .execute() == 1;
        }));
    }
}
