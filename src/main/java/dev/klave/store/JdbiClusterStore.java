package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterCapabilities;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.ClusterStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link ClusterStore} in SQL. */
public final class JdbiClusterStore implements ClusterStore {
    private static final String COLUMNS = "id, name, created_at, secrets, tokens_set_at, last_reconciled_at, last_error";

    private final Database database;

    public JdbiClusterStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(Cluster cluster) {
        database.write(handle -> handle.createUpdate("INSERT INTO clusters (" + COLUMNS + ") VALUES "
                        + "(:id, :name, :created_at, :secrets, :tokens_set_at, :last_reconciled_at, :last_error)")
                .bind("id", cluster.id().value())
                .bind("name", cluster.name())
                .bind("created_at", cluster.createdAt().toEpochMilli())
                .bind("secrets", cluster.sealedSecrets().orElse(null))
                .bind("tokens_set_at", Times.toMillis(cluster.tokensSetAt()))
                .bind("last_reconciled_at", Times.toMillis(cluster.lastReconciledAt()))
                .bind("last_error", cluster.lastError().orElse(null))
                .execute());
    }

    @Override
    public Optional<Cluster> findById(ClusterId id) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM clusters WHERE id = :id")
                .bind("id", id.value())
                .map(JdbiClusterStore::map)
                .findOne());
    }

    @Override
    public List<Cluster> list() {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM clusters ORDER BY id")
                .map(JdbiClusterStore::map)
                .list());
    }

    @Override
    public void setSecrets(ClusterId id, String sealedSecrets, Instant at) {
        database.write(handle -> handle.createUpdate("UPDATE clusters SET secrets = :secrets, "
                        + "tokens_set_at = :at, last_error = NULL WHERE id = :id")
                .bind("id", id.value())
                .bind("secrets", sealedSecrets)
                .bind("at", at.toEpochMilli())
                .execute());
    }

    @Override
    public void recordReconciliation(ClusterId id, Instant at, Optional<String> error) {
        database.write(handle -> handle.createUpdate("UPDATE clusters SET last_reconciled_at = :at, "
                        + "last_error = :error WHERE id = :id")
                .bind("id", id.value())
                .bind("at", at.toEpochMilli())
                .bind("error", error.orElse(null))
                .execute());
    }

    @Override
    public void recordCapabilities(ClusterId id, String kubernetesVersion, boolean aggregatedDiscovery) {
        database.write(handle -> handle.createUpdate("UPDATE clusters SET kubernetes_version = :version, "
                        + "aggregated_discovery = :aggregated WHERE id = :id")
                .bind("id", id.value())
                .bind("version", kubernetesVersion)
                .bind("aggregated", aggregatedDiscovery ? 1 : 0)
                .execute());
    }

    @Override
    public ClusterCapabilities capabilities(ClusterId id) {
        return database.withHandle(handle -> handle.createQuery("SELECT kubernetes_version, aggregated_discovery "
                        + "FROM clusters WHERE id = :id")
                .bind("id", id.value())
                .map((row, context) -> {
                    int aggregated = row.getInt("aggregated_discovery");
                    return new ClusterCapabilities(Optional.ofNullable(row.getString("kubernetes_version")),
                            row.wasNull() ? Optional.empty() : Optional.of(aggregated == 1));
                })
                .findOne()
                .orElse(ClusterCapabilities.UNKNOWN));
    }

    @Override
    public boolean delete(ClusterId id) {
        return database.inTransaction(() -> database.withHandle(handle -> {
            handle.createUpdate("DELETE FROM grants WHERE cluster_id = :id").bind("id", id.value()).execute();
            return handle.createUpdate("DELETE FROM clusters WHERE id = :id").bind("id", id.value()).execute() == 1;
        }));
    }

    private static Cluster map(ResultSet row, StatementContext context) throws SQLException {
        return new Cluster(new ClusterId(row.getString("id")), row.getString("name"),
                Times.instant(row, "created_at").orElseThrow(), Optional.ofNullable(row.getString("secrets")),
                Times.instant(row, "tokens_set_at"), Times.instant(row, "last_reconciled_at"),
                Optional.ofNullable(row.getString("last_error")));
    }
}
