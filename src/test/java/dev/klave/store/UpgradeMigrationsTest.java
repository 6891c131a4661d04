package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.IdentityProvider;
import dev.klave.account.SubjectId;
import dev.klave.config.DatabaseUrl;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An installation upgraded from before external identities and e-mail keys keeps what it had: its
 * forge links move to the identity store (V9), its people are found by e-mail (V11, V12) and its
 * locked accounts stay locked (V13).
 */
class UpgradeMigrationsTest {
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
}
