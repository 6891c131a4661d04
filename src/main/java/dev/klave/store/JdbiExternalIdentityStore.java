package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.account.IdentityProvider;
import dev.klave.account.SubjectId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link ExternalIdentityStore} in SQL, the same statements for both dialects. */
public final class JdbiExternalIdentityStore implements ExternalIdentityStore {
    private static final String COLUMNS = "subject_id, provider, issuer, claim, value, display, email, linked_at";
    private static final String KEY = "provider = :provider AND issuer = :issuer AND claim = :claim AND value = :value";

    private final Database database;

    public JdbiExternalIdentityStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public Optional<ExternalIdentity> find(ExternalIdentity.Key key) {
        return database.withHandle(handle -> handle.createQuery(
                        "SELECT " + COLUMNS + " FROM external_identities WHERE " + KEY)
                .bind("provider", key.provider().code())
                .bind("issuer", key.issuer())
                .bind("claim", key.claim())
                .bind("value", key.value())
                .map(JdbiExternalIdentityStore::map)
                .findOne());
    }

    @Override
    public Optional<ExternalIdentity> findFor(SubjectId subject, IdentityProvider provider) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM external_identities "
                        + "WHERE subject_id = :subject_id AND provider = :provider")
                .bind("subject_id", subject.value())
                .bind("provider", provider.code())
                .map(JdbiExternalIdentityStore::map)
                .findOne());
    }

    @Override
    public List<ExternalIdentity> listFor(java.util.Collection<SubjectId> subjects) {
        List<ExternalIdentity> found = new java.util.ArrayList<>();
        database.withHandle(handle -> {
            ListingSql.inBatches(subjects, ids -> found.addAll(handle.createQuery("SELECT " + COLUMNS
                            + " FROM external_identities WHERE subject_id IN (<ids>) ORDER BY subject_id, provider")
                    .bindList("ids", ids)
                    .map(JdbiExternalIdentityStore::map)
                    .list()));
            return null;
        });
        return found;
    }

    @Override
    public List<ExternalIdentity> listFor(SubjectId subject) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM external_identities "
                        + "WHERE subject_id = :subject_id ORDER BY provider")
                .bind("subject_id", subject.value())
                .map(JdbiExternalIdentityStore::map)
                .list());
    }

    @Override
    public List<ExternalIdentity> list(IdentityProvider provider) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM external_identities "
                        + "WHERE provider = :provider ORDER BY subject_id")
                .bind("provider", provider.code())
                .map(JdbiExternalIdentityStore::map)
                .list());
    }

    @Override
    public void link(ExternalIdentity identity) {
        database.inTransaction(() -> database.withHandle(handle -> {
            handle.createUpdate("DELETE FROM external_identities WHERE subject_id = :subject_id AND provider = :provider")
                    .bind("subject_id", identity.subjectId().value())
                    .bind("provider", identity.key().provider().code())
                    .execute();
            return handle.createUpdate("INSERT INTO external_identities (" + COLUMNS + ") VALUES "
                            + "(:subject_id, :provider, :issuer, :claim, :value, :display, :email, :linked_at)")
                    .bind("subject_id", identity.subjectId().value())
                    .bind("provider", identity.key().provider().code())
                    .bind("issuer", identity.key().issuer())
                    .bind("claim", identity.key().claim())
                    .bind("value", identity.key().value())
                    .bind("display", identity.display().orElse(null))
                    .bind("email", identity.email().orElse(null))
                    .bind("linked_at", identity.linkedAt().toEpochMilli())
                    .execute();
        }));
    }

    @Override
    public boolean unlink(SubjectId subject, IdentityProvider provider) {
        return database.write(handle -> handle.createUpdate(
                        "DELETE FROM external_identities WHERE subject_id = :subject_id AND provider = :provider")
                .bind("subject_id", subject.value())
                .bind("provider", provider.code())
                .execute()) == 1;
    }

    @Override
    public boolean refresh(SubjectId subject, ExternalIdentity.Key key, Optional<String> display,
            Optional<String> email) {
        return database.write(handle -> handle.createUpdate("UPDATE external_identities "
                        + "SET display = :display, email = :email WHERE subject_id = :subject_id AND " + KEY)
                .bind("display", display.orElse(null))
                .bind("email", email.orElse(null))
                .bind("subject_id", subject.value())
                .bind("provider", key.provider().code())
                .bind("issuer", key.issuer())
                .bind("claim", key.claim())
                .bind("value", key.value())
                .execute()) == 1;
    }

    private static ExternalIdentity map(ResultSet row, StatementContext context) throws SQLException {
        return new ExternalIdentity(
                new SubjectId(row.getString("subject_id")),
                new ExternalIdentity.Key(IdentityProvider.ofCode(row.getString("provider")), row.getString("issuer"),
                        row.getString("claim"), row.getString("value")),
                Optional.ofNullable(row.getString("display")),
                Optional.ofNullable(row.getString("email")),
                Times.instant(row, "linked_at").orElseThrow());
    }
}
