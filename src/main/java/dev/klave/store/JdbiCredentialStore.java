package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Login;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.credential.Credential;
import dev.klave.credential.CredentialFilter;
import dev.klave.credential.CredentialStore;
import dev.klave.credential.ListedCredential;
import dev.klave.storage.Keyset;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link CredentialStore} in SQL. */
public final class JdbiCredentialStore implements CredentialStore {
    private static final String COLUMNS = "id, token_hash, subject_id, cluster_id, name, note, created_at, "
            + "expires_at, created_by, revoked_at, revoked_by, revoke_reason";
    private static final String QUALIFIED = "c." + COLUMNS.replace(", ", ", c.");

    private final Database database;

    public JdbiCredentialStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(Credential credential) {
        database.write(handle -> handle.createUpdate("INSERT INTO credentials (" + COLUMNS + ") VALUES (:id, "
                        + ":token_hash, :subject_id, :cluster_id, :name, :note, :created_at, :expires_at, :created_by, "
                        + ":revoked_at, :revoked_by, :revoke_reason)")
                .bind("id", credential.id())
                .bind("token_hash", credential.tokenHash())
                .bind("subject_id", credential.subjectId().value())
                .bind("cluster_id", credential.clusterId().map(ClusterId::value).orElse(null))
                .bind("name", credential.name())
                .bind("note", credential.note())
                .bind("created_at", credential.createdAt().toEpochMilli())
                .bind("expires_at", credential.expiresAt().toEpochMilli())
                .bind("created_by", credential.createdBy().orElse(null))
                .bind("revoked_at", Times.toMillis(credential.revokedAt()))
                .bind("revoked_by", credential.revokedBy().orElse(null))
                .bind("revoke_reason", credential.revokeReason().orElse(null))
                .execute());
    }

    @Override
    public Optional<Credential> findById(String id) {
        return findBy("id", id);
    }

    @Override
    public Optional<Credential> findByTokenHash(String tokenHash) {
        return findBy("token_hash", tokenHash);
    }

    private Optional<Credential> findBy(String column, String value) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM credentials WHERE "
                        + column + " = :value")
                .bind("value", value)
                .map(JdbiCredentialStore::map)
                .findOne());
    }

    @Override
    public List<ListedCredential> list(CredentialFilter filter, Instant now, Optional<Keyset> after, int limit) {
        ListingSql.Statement statement = listing(filter, now, after, limit);
        return database.withHandle(handle -> statement.list(handle, (row, context) ->
                new ListedCredential(map(row, context), new Login(row.getString("owner_login")))));
    }

    @Override
    public List<ListedCredential> findListed(Collection<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return database.withHandle(handle -> handle.createQuery("SELECT " + QUALIFIED
                        + ", s.login AS owner_login FROM credentials c JOIN subjects s ON s.id = c.subject_id "
                        + "WHERE c.id IN (<ids>) ORDER BY c.created_at DESC, c.id")
                .bindList("ids", List.copyOf(new java.util.LinkedHashSet<>(ids)))
                .map((row, context) -> new ListedCredential(map(row, context), new Login(row.getString("owner_login"))))
                .list());
    }

    /**
     * The listing's one statement: the owner's login comes from a join, never from a query per row.
     * Each filter has an index that also gives the order ({@code V22}): by owner, by cluster, or the
     * newest-first one that the state and text filters walk.
     */
    static ListingSql.Statement listing(CredentialFilter filter, Instant now, Optional<Keyset> after, int limit) {
        ListingSql sql = new ListingSql("SELECT " + QUALIFIED + ", s.login AS owner_login FROM credentials c "
                + "JOIN subjects s ON s.id = c.subject_id");
        filter.subject().ifPresent(subject -> sql.where("c.subject_id = :subject_id", "subject_id", subject.value()));
        filter.cluster().ifPresent(cluster -> sql.where("c.cluster_id = :cluster_id", "cluster_id", cluster.value()));
        filter.status().ifPresent(status -> {
            switch (status) {
                case ACTIVE -> sql.where("c.revoked_at IS NULL AND c.expires_at > :now", "now", now.toEpochMilli());
                case EXPIRED -> sql.where("c.revoked_at IS NULL AND c.expires_at <= :now", "now", now.toEpochMilli());
                case REVOKED -> sql.where("c.revoked_at IS NOT NULL");
            }
        });
        filter.text().ifPresent(text -> sql.where("(lower(c.name) LIKE :text ESCAPE '!' "
                + "OR s.login LIKE :text ESCAPE '!')", "text", ListingSql.containing(text)));
        return sql.after(after, "c.created_at", "c.id").orderBy("c.created_at DESC, c.id", limit);
    }

    @Override
    public Map<SubjectId, Integer> countActive(Collection<SubjectId> subjects, Instant now) {
        return database.withHandle(handle -> ListingSql.countBySubject(handle, "credentials",
                "revoked_at IS NULL AND expires_at > :now", subjects, now.toEpochMilli()));
    }

    @Override
    public boolean revoke(String id, Instant at, Optional<String> by, Optional<String> reason) {
        return database.write(handle -> handle.createUpdate("UPDATE credentials SET revoked_at = :at, "
                        + "revoked_by = :by, revoke_reason = :reason WHERE id = :id AND revoked_at IS NULL")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("by", by.orElse(null))
                .bind("reason", reason.orElse(null))
                .execute()) == 1;
    }

    @Override
    public int revokeAllOf(SubjectId subject, Instant at, String reason) {
        return database.write(handle -> handle.createUpdate("UPDATE credentials SET revoked_at = :at, "
                        + "revoke_reason = :reason WHERE subject_id = :subject_id AND revoked_at IS NULL")
                .bind("subject_id", subject.value())
                .bind("at", at.toEpochMilli())
                .bind("reason", reason)
                .execute());
    }

    @Override
    public int revokeAllRestrictedTo(ClusterId cluster, Instant at, String reason) {
        return database.write(handle -> handle.createUpdate("UPDATE credentials SET revoked_at = :at, "
                        + "revoke_reason = :reason WHERE cluster_id = :cluster_id AND revoked_at IS NULL")
                .bind("cluster_id", cluster.value())
                .bind("at", at.toEpochMilli())
                .bind("reason", reason)
                .execute());
    }

    private static Credential map(ResultSet row, StatementContext context) throws SQLException {
        String cluster = row.getString("cluster_id");
        return new Credential(row.getString("id"), row.getString("token_hash"),
                new SubjectId(row.getString("subject_id")),
                cluster == null ? Optional.empty() : Optional.of(new ClusterId(cluster)), row.getString("name"),
                row.getString("note"), Times.instant(row, "created_at").orElseThrow(),
                Times.instant(row, "expires_at").orElseThrow(), Optional.ofNullable(row.getString("created_by")),
                Times.instant(row, "revoked_at"), Optional.ofNullable(row.getString("revoked_by")),
                Optional.ofNullable(row.getString("revoke_reason")));
    }
}
