package dev.klave.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DatabaseUrlTest {
    @Test
    void sqliteUrlNamesAFile() {
        DatabaseUrl url = DatabaseUrl.parse("sqlite:data/klave.db");

        assertThat(url).isEqualTo(new DatabaseUrl.Sqlite(Path.of("data/klave.db")));
        assertThat(((DatabaseUrl.Sqlite) url).jdbcUrl()).isEqualTo("jdbc:sqlite:data/klave.db");
    }

    @Test
    void postgresUrlBecomesAJdbcUrlWithCredentialsApart() {
        DatabaseUrl.Postgres url = (DatabaseUrl.Postgres) DatabaseUrl.parse(
                "postgres://app%2Buser:p%3Ass+word@10.1.2.3/klave?sslmode=require&connectTimeout=5");

        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://10.1.2.3:5432/klave?sslmode=require&connectTimeout=5");
        assertThat(url.user()).isEqualTo("app+user");
        assertThat(url.password()).contains("p:ss+word");
    }

    @Test
    void postgresqlSchemeAndNoPasswordAreAccepted() {
        DatabaseUrl.Postgres url = (DatabaseUrl.Postgres) DatabaseUrl.parse("postgresql://postgres@127.0.0.1:5432/postgres");

        assertThat(url.password()).isEqualTo(Optional.empty());
        assertThat(url.display()).isEqualTo("postgres://postgres@127.0.0.1:5432/postgres");
    }

    @Test
    void brokenEscapeIsRefused() {
        assertThatThrownBy(() -> DatabaseUrl.parse("postgres://u:%zz@h/db"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
