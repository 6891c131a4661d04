package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.IdentityProvider;
import dev.klave.account.SubjectId;
import dev.klave.ci.TrustRule;
import dev.klave.config.DatabaseUrl;
import dev.klave.store.migration.V12__EmailKeys;
import dev.klave.storage.AlreadyExistsException;
import dev.klave.testing.TestingPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An installation upgraded from before external identities and e-mail keys keeps what it had: its
 * forge links move to the identity store (V9), its people are found by e-mail (V11, V12) and its
 * locked accounts stay locked (V13), trust rules that repeat another stay (V14), and audit rows
 * written before tools existed read as rows of the proxy (V15).
 */
class UpgradeMigrationsTest {
    private static final String BOT = "0b3c2a8e-3b7d-4c51-9a0e-2d8f4b6c1e94";

    @Test
    void anOlderSqliteDatabaseKeepsItsForgeLinksAndFindsItsPeopleByEmail(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("klave.db");
        Flyway.configure().dataSource("jdbc:sqlite:" + file, null, null)
                .locations("classpath:db/migration/sqlite").target("8").load().migrate();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO subjects (id, login, kind, display_name, email, is_admin, break_glass, "
                    + "forge_id, forge_login, created_at) VALUES ('6f1c2a8e-3b7d-4c51-9a0e-2d8f4b6c1e93', 'ana', 'person', 'Ana', ' Ana@Example.COM', 1, 0, "
                    + "4242, 'ana-gh', 1764000000000)");
            statement.execute("INSERT INTO login_failures (subject_id, failures, locked_until) VALUES "
                    + "('6f1c2a8e-3b7d-4c51-9a0e-2d8f4b6c1e93', 0, 4102444800000)");
        }

        try (Database database = Database.open(new DatabaseUrl.Sqlite(file))) {
            ExternalIdentity identity = new JdbiExternalIdentityStore(database)
                    .findFor(new SubjectId("6f1c2a8e-3b7d-4c51-9a0e-2d8f4b6c1e93"), IdentityProvider.FORGE).orElseThrow();
            assertThat(identity.key()).isEqualTo(ExternalIdentity.Key.forge(4242));
            assertThat(identity.display()).contains("ana-gh");
            assertThat(new JdbiSubjectStore(database).findPeopleByEmail("ana@example.com"))
                    .extracting(subject -> subject.login().value()).containsExactly("ana");
            assertThat(new JdbiLoginFailureStore(database).state("ana").lockedUntil()).as("the lock moved to the login (V13)")
                    .contains(java.time.Instant.ofEpochMilli(4102444800000L));
        }
    }

    @Test
    void identicalTrustRulesOfAnOlderSqliteDatabaseAreKept(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("klave.db");
        String jdbcUrl = "jdbc:sqlite:" + file;
        Flyway.configure().dataSource(jdbcUrl, null, null)
                .locations("classpath:db/migration/sqlite").target("11").load().migrate();
        try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
            insertIdenticalRules(connection);
        }

        try (Database database = Database.open(new DatabaseUrl.Sqlite(file))) {
            assertIdenticalRulesKept(database);
        }
    }

    @Test
    void identicalTrustRulesOfAnOlderPostgresDatabaseAreKept() throws Exception {
        DatabaseUrl.Postgres url = TestingPostgres.freshDatabase();
        try {
            String password = url.password().orElse(null);
            Flyway.configure().dataSource(url.jdbcUrl(), url.user(), password)
                    .locations("classpath:db/migration/postgres").target("11").load().migrate();
            try (Connection connection = DriverManager.getConnection(url.jdbcUrl(), url.user(), password)) {
                insertIdenticalRules(connection);
            }

            try (Database database = Database.open(url)) {
                assertIdenticalRulesKept(database);
            }
        } finally {
            TestingPostgres.drop(url);
        }
    }

    @Test
    void auditRowsOfAnOlderSqliteDatabaseReadAsProxyRows(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("klave.db");
        String jdbcUrl = "jdbc:sqlite:" + file;
        Flyway.configure().dataSource(jdbcUrl, null, null)
                .locations("classpath:db/migration/sqlite").javaMigrations(new V12__EmailKeys()).target("14").load()
                .migrate();
        try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
            insertAuditRow(connection);
        }

        try (Database database = Database.open(new DatabaseUrl.Sqlite(file))) {
            assertReadsAsProxy(database);
        }
    }

    @Test
    void auditRowsOfAnOlderPostgresDatabaseReadAsProxyRows() throws Exception {
        DatabaseUrl.Postgres url = TestingPostgres.freshDatabase();
        try {
            String password = url.password().orElse(null);
            Flyway.configure().dataSource(url.jdbcUrl(), url.user(), password)
                    .locations("classpath:db/migration/postgres").javaMigrations(new V12__EmailKeys()).target("14")
                    .load().migrate();
            try (Connection connection = DriverManager.getConnection(url.jdbcUrl(), url.user(), password)) {
                insertAuditRow(connection);
            }

            try (Database database = Database.open(url)) {
                assertReadsAsProxy(database);
            }
        } finally {
            TestingPostgres.drop(url);
        }
    }

    // Three rows of one millisecond, so that only the id orders them, and a hex letter against a
    // digit in the same place: text and the stored key must agree on which comes first.
    private static final String FIRST = "01a00000-0000-7000-8000-00000000000f";
    private static final String SECOND = "01a00000-0000-7000-8000-0000000000a0";
    private static final String THIRD = "01a00000-0000-7000-8000-0000000000ff";

    @Test
    void auditIdsKeptAsTextBeforeV37KeepTheirOrderCursorAndCompletionsAsUuids() throws Exception {
        DatabaseUrl.Postgres url = TestingPostgres.freshDatabase();
        try {
            String password = url.password().orElse(null);
            Flyway.configure().dataSource(url.jdbcUrl(), url.user(), password)
                    .locations("classpath:db/migration/postgres").javaMigrations(new V12__EmailKeys()).target("36")
                    .load().migrate();
            try (Connection connection = DriverManager.getConnection(url.jdbcUrl(), url.user(), password)) {
                insertTextKeyedRows(connection);
            }
            try (Database database = Database.open(url)) {
                List<String> types = database.withHandle(handle -> handle.createQuery("SELECT data_type FROM "
                        + "information_schema.columns WHERE table_name IN ('audit', 'audit_completion') AND column_name = 'id'")
                        .mapTo(String.class).list());
                assertThat(types).containsExactly("uuid", "uuid");
                assertKeptInOrder(database);
            }
        } finally {
            TestingPostgres.drop(url);
        }
    }

    @Test
    void auditIdsKeptAsTextBeforeV37KeepTheirOrderCursorAndCompletionsAsBytes(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("klave.db");
        String jdbcUrl = "jdbc:sqlite:" + file;
        Flyway.configure().dataSource(jdbcUrl, null, null)
                .locations("classpath:db/migration/sqlite").javaMigrations(new V12__EmailKeys()).target("36").load()
                .migrate();
        try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
            insertTextKeyedRows(connection);
        }
        try (Database database = Database.open(new DatabaseUrl.Sqlite(file))) {
            List<String> types = database.withHandle(handle -> handle.createQuery("SELECT typeof(id) FROM audit "
                    + "UNION ALL SELECT typeof(id) FROM audit_completion").mapTo(String.class).list());
            assertThat(types).containsOnly("blob").hasSize(4);
            assertKeptInOrder(database);
            // The feed reads the stored keys: the completion numbered before V37 and one written now.
            JdbiAuditStore audit = new JdbiAuditStore(database);
            audit.write(List.of(), List.of(new dev.klave.audit.AuditRow.Completion(FIRST, 200, Optional.empty(),
                    Instant.ofEpochMilli(1764000000002L), dev.klave.audit.AuditRow.Completion.Kind.ENDED)));
            assertThat(new JdbiAuditFeed(database).after(dev.klave.audit.FeedPosition.START, 10))
                    .extracting(entry -> entry.request().orElseThrow().id()).containsExactly(SECOND, FIRST);
        }
    }

    private static void insertTextKeyedRows(Connection connection) throws Exception {
        try (Statement statement = connection.createStatement()) {
            for (String id : new String[] {SECOND, THIRD, FIRST}) {
                statement.execute("INSERT INTO audit (id, at, cluster_id, verb, resource, path) VALUES ('" + id
                        + "', 1764000000000, 'prod-1', 'list', 'pods', '/api/v1/pods')");
            }
            statement.execute("INSERT INTO audit_completion (id, status, completed_at, refused) VALUES ('"
                    + SECOND + "', 403, 1764000000001, 0)");
        }
    }

    private static void assertKeptInOrder(Database database) {
        JdbiAuditStore audit = new JdbiAuditStore(database);
        dev.klave.audit.AuditFilter all = new dev.klave.audit.AuditFilter(Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), true, Optional.empty(), Optional.empty(), Optional.empty());
        assertThat(audit.find(all, 0, 10)).extracting(dev.klave.audit.AuditRow::id).containsExactly(THIRD, SECOND, FIRST);
        dev.klave.audit.AuditRow top = audit.find(all, 0, 1).getFirst();
        assertThat(audit.find(all, Optional.of(dev.klave.audit.AuditCursor.after(top)), 0, 10))
                .extracting(dev.klave.audit.AuditRow::id).containsExactly(SECOND, FIRST);
        assertThat(audit.findById(SECOND).orElseThrow().outcome().map(dev.klave.audit.AuditRow.Outcome::status))
                .contains(403);
        assertThat(audit.findById("not-an-audit-id")).isEmpty();
        assertThat(audit.findById(SECOND.toUpperCase(java.util.Locale.ROOT))).isEmpty();
    }

    private static final String AUDIT_ID = "01a00000-0000-7000-8000-0000000000aa";

    private static void insertAuditRow(Connection connection) throws Exception {
        try (Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO audit (id, at, subject_id, cluster_id, verb, resource, path, status, "
                    + "completed_at) VALUES ('" + AUDIT_ID + "', 1764000000000, 's-1', 'prod-1', 'list', 'pods', "
                    + "'/api/v1/pods', 200, 1764000000001)");
        }
    }

    private static void assertReadsAsProxy(Database database) {
        JdbiAuditStore audit = new JdbiAuditStore(database);
        assertThat(audit.findById(AUDIT_ID).orElseThrow().request().channel()).isEqualTo(dev.klave.audit.Channel.PROXY);
        dev.klave.audit.AuditFilter proxyRows = new dev.klave.audit.AuditFilter(Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), true, Optional.of(dev.klave.audit.Channel.Kind.PROXY), Optional.empty(),
                Optional.empty());
        assertThat(audit.find(proxyRows, 0, 10)).extracting(dev.klave.audit.AuditRow::id).containsExactly(AUDIT_ID);
    }

    /** Three rules alike but for their names (as Klave allowed before V14), and one for another environment. */
    private static void insertIdenticalRules(Connection connection) throws Exception {
        try (Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO subjects (id, login, kind, display_name, created_at) VALUES ('"
                    + BOT + "', 'deployer', 'bot', 'deployer', 1764000000000)");
            String rule = "INSERT INTO ci_trust_rules (id, name, bot_subject_id, repository_owner_id, repository_id, "
                    + "ref, environment, created_at) VALUES ('%s', '%s', '" + BOT + "', 11, 12, 'refs/heads/main', "
                    + "'%s', %d)";
            statement.execute(rule.formatted("rule-b", "copy", "production", 1764000000002L));
            statement.execute(rule.formatted("rule-a", "original", "production", 1764000000001L));
            statement.execute(rule.formatted("rule-c", "another copy", "production", 1764000000002L));
            statement.execute(rule.formatted("rule-d", "staging", "staging", 1764000000003L));
        }
    }

    private static void assertIdenticalRulesKept(Database database) {
        JdbiTrustRuleStore rules = new JdbiTrustRuleStore(database);
        assertThat(rules.list()).extracting(TrustRule::id).containsExactly("rule-a", "rule-b", "rule-c", "rule-d");
        TrustRule another = new TrustRule("rule-e", "new", new SubjectId(BOT), 11, 12, "refs/heads/main",
                "production", Instant.ofEpochMilli(1764000000004L), Optional.empty());
        assertThat(rules.findSame(another).map(TrustRule::name)).contains("original");
        assertThatThrownBy(() -> rules.create(another)).as("the index covers the oldest of the kept ones")
                .isInstanceOf(AlreadyExistsException.class);
    }
}
