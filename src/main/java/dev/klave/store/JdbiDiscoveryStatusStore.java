package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.login.oidc.DiscoveryStatus;
import dev.klave.login.oidc.DiscoveryStatusStore;
import java.time.Instant;
import java.util.Optional;

/** {@link DiscoveryStatusStore} as one row per issuer, upserted. */
public final class JdbiDiscoveryStatusStore implements DiscoveryStatusStore {
    private final Database database;

    public JdbiDiscoveryStatusStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public Optional<DiscoveryStatus> find(String issuer) {
        return database.withHandle(handle -> handle.createQuery(
                        "SELECT issuer, fetched_at, failed_at, error FROM oidc_discovery WHERE issuer = :issuer")
                .bind("issuer", issuer)
                .map((row, context) -> new DiscoveryStatus(row.getString("issuer"), Times.instant(row, "fetched_at"),
                        Times.instant(row, "failed_at"), Optional.ofNullable(row.getString("error"))))
                .findOne());
    }

    @Override
    public void fetched(String issuer, Instant at) {
        database.write(handle -> handle.createUpdate("INSERT INTO oidc_discovery (issuer, fetched_at) "
                        + "VALUES (:issuer, :at) ON CONFLICT (issuer) DO UPDATE SET fetched_at = excluded.fetched_at")
                .bind("issuer", issuer)
                .bind("at", at.toEpochMilli())
                .execute());
    }

    @Override
    public void failed(String issuer, Instant at, String error) {
        database.write(handle -> handle.createUpdate("INSERT INTO oidc_discovery (issuer, failed_at, error) "
                        + "VALUES (:issuer, :at, :error) ON CONFLICT (issuer) DO UPDATE SET "
                        + "failed_at = excluded.failed_at, error = excluded.error")
                .bind("issuer", issuer)
                .bind("at", at.toEpochMilli())
                .bind("error", error)
                .execute());
    }
}
