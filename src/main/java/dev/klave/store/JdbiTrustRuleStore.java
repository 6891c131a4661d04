package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.ci.TrustRule;
import dev.klave.ci.TrustRuleStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link TrustRuleStore} in SQL. */
public final class JdbiTrustRuleStore implements TrustRuleStore {
    private static final String COLUMNS = "id, name, bot_subject_id, repository_owner_id, repository_id, ref, "
            + "environment, created_at, created_by";

    private final Database database;

    public JdbiTrustRuleStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(TrustRule rule) {
        database.write(handle -> handle.createUpdate("INSERT INTO ci_trust_rules (" + COLUMNS + ") VALUES (:id, "
                        + ":name, :bot_subject_id, :repository_owner_id, :repository_id, :ref, :environment, "
                        + ":created_at, :created_by)")
                .bind("id", rule.id())
                .bind("name", rule.name())
                .bind("bot_subject_id", rule.botSubjectId().value())
                .bind("repository_owner_id", rule.repositoryOwnerId())
                .bind("repository_id", rule.repositoryId())
                .bind("ref", rule.ref())
                .bind("environment", rule.environment())
                .bind("created_at", rule.createdAt().toEpochMilli())
                .bind("created_by", rule.createdBy().orElse(null))
                .execute());
    }

    @Override
    public Optional<TrustRule> findSame(TrustRule rule) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM ci_trust_rules "
                        + "WHERE bot_subject_id = :bot_subject_id AND repository_owner_id = :repository_owner_id "
                        + "AND repository_id = :repository_id AND ref = :ref AND environment = :environment "
                        + "ORDER BY created_at, id LIMIT 1")
                .bind("bot_subject_id", rule.botSubjectId().value())
                .bind("repository_owner_id", rule.repositoryOwnerId())
                .bind("repository_id", rule.repositoryId())
                .bind("ref", rule.ref())
                .bind("environment", rule.environment())
                .map(JdbiTrustRuleStore::map)
                .findOne());
    }

    @Override
    public List<TrustRule> list() {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM ci_trust_rules "
                        + "ORDER BY created_at, id")
                .map(JdbiTrustRuleStore::map)
                .list());
    }

    @Override
    public Optional<TrustRule> findById(String id) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM ci_trust_rules "
                        + "WHERE id = :id")
                .bind("id", id)
                .map(JdbiTrustRuleStore::map)
                .findOne());
    }

    @Override
    public boolean delete(String id) {
        return database.write(handle -> handle.createUpdate("DELETE FROM ci_trust_rules WHERE id = :id")
                .bind("id", id)
                .execute()) == 1;
    }

    private static TrustRule map(ResultSet row, StatementContext context) throws SQLException {
        return new TrustRule(row.getString("id"), row.getString("name"), new SubjectId(row.getString("bot_subject_id")),
                row.getLong("repository_owner_id"), row.getLong("repository_id"), row.getString("ref"),
                row.getString("environment"), Times.instant(row, "created_at").orElseThrow(),
                Optional.ofNullable(row.getString("created_by")));
    }
}
