package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.login.forge.SyncReport;
import dev.klave.login.forge.SyncReportStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link SyncReportStore} as one row, replaced by an upsert. */
public final class JdbiSyncReportStore implements SyncReportStore {
    private final Database database;

    public JdbiSyncReportStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public Optional<SyncReport> last() {
        return database.withHandle(handle -> handle.createQuery("SELECT started_at, finished_at, replica, members_seen, "
                        + "disabled, renamed, two_factor_required, error FROM forge_sync_reports WHERE id = 1")
                .map(JdbiSyncReportStore::map)
                .findOne());
    }

    @Override
    public void save(SyncReport report) {
        database.write(handle -> handle.createUpdate("INSERT INTO forge_sync_reports (id, started_at, finished_at, "
                        + "replica, members_seen, disabled, renamed, two_factor_required, error) VALUES (1, :started_at, "
                        + ":finished_at, :replica, :members_seen, :disabled, :renamed, :two_factor_required, :error) "
                        + "ON CONFLICT (id) DO UPDATE SET started_at = excluded.started_at, "
                        + "finished_at = excluded.finished_at, replica = excluded.replica, "
                        + "members_seen = excluded.members_seen, disabled = excluded.disabled, "
                        + "renamed = excluded.renamed, two_factor_required = excluded.two_factor_required, "
                        + "error = excluded.error")
                .bind("started_at", report.startedAt().toEpochMilli())
                .bind("finished_at", report.finishedAt().toEpochMilli())
                .bind("replica", report.replica())
                .bind("members_seen", report.membersSeen())
                .bind("disabled", report.disabled())
                .bind("renamed", report.renamed())
                .bind("two_factor_required", report.twoFactorRequired().orElse(null))
                .bind("error", report.error().orElse(null))
                .execute());
    }

    private static SyncReport map(ResultSet row, StatementContext context) throws SQLException {
        boolean twoFactor = row.getBoolean("two_factor_required");
        Optional<Boolean> required = row.wasNull() ? Optional.empty() : Optional.of(twoFactor);
        return new SyncReport(Times.instant(row, "started_at").orElseThrow(),
                Times.instant(row, "finished_at").orElseThrow(), row.getString("replica"), row.getInt("members_seen"),
                row.getInt("disabled"), row.getInt("renamed"), required, Optional.ofNullable(row.getString("error")));
    }
}
