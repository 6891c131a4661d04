package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Where the state lives ({@code SERVICE_DATABASE_URL}): an SQLite file, or a PostgreSQL server
 * shared by every replica.
 */
public sealed interface DatabaseUrl {
    String DEFAULT = "sqlite:data/klave.db";

    /** A form safe to print: never the password. */
    String display();

    static DatabaseUrl parse(String text) {
        requireNonNull(text, "text is null");
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.startsWith("sqlite:")) {
            return Sqlite.parse(text.substring("sqlite:".length()));
        }
        if (lower.startsWith("postgres://") || lower.startsWith("postgresql://")) {
            return Postgres.parse(text);
        }
        throw new IllegalArgumentException(
                "must be sqlite:<path> or postgres://user:password@host:port/database");
    }

    /** An SQLite database file; its directory is created on start. */
    record Sqlite(Path file) implements DatabaseUrl {
        public Sqlite {
            requireNonNull(file, "file is null");
        }

        static Sqlite parse(String pathText) {
            if (pathText.isBlank()) {
                throw new IllegalArgumentException("sqlite: needs a file path, e.g. sqlite:data/klave.db");
            }
            try {
                return new Sqlite(Path.of(pathText));
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("sqlite: path is not valid");
            }
        }

        public String jdbcUrl() {
            return "jdbc:sqlite:" + file;
        }

        @Override
        public String display() {
            return "sqlite:" + file;
        }
    }

    /**
     * A PostgreSQL server. The URL's query (for example {@code sslmode=verify-full}) is passed to
     * the driver as it is; user and password travel as connection properties, percent-decoded.
     */
    record Postgres(String host, int port, String database, String user, Optional<String> password,
            Optional<String> query) implements DatabaseUrl {
        public Postgres {
            requireNonNull(host, "host is null");
            requireNonNull(database, "database is null");
            requireNonNull(user, "user is null");
            requireNonNull(password, "password is null");
            requireNonNull(query, "query is null");
        }

        static Postgres parse(String text) {
            URI uri;
            try {
                uri = new URI(text);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("postgres URL is not a valid URL");
            }
            if (uri.getHost() == null) {
                throw new IllegalArgumentException("postgres URL has no host");
            }
            String path = uri.getRawPath() == null ? "" : uri.getRawPath();
            if (path.length() <= 1 || path.indexOf('/', 1) >= 0) {
                throw new IllegalArgumentException("postgres URL must name one database: postgres://…/klave");
            }
            String rawUserInfo = uri.getRawUserInfo();
            if (rawUserInfo == null || rawUserInfo.isEmpty() || rawUserInfo.startsWith(":")) {
                throw new IllegalArgumentException("postgres URL must name a user: postgres://user:password@host/db");
            }
            int colon = rawUserInfo.indexOf(':');
            String user = percentDecode(colon < 0 ? rawUserInfo : rawUserInfo.substring(0, colon));
            Optional<String> password = colon < 0
                    ? Optional.empty()
                    : Optional.of(percentDecode(rawUserInfo.substring(colon + 1)));
            int port = uri.getPort() == -1 ? 5432 : uri.getPort();
            return new Postgres(uri.getHost(), port, percentDecode(path.substring(1)), user, password,
                    Optional.ofNullable(uri.getRawQuery()));
        }

        public String jdbcUrl() {
            return "jdbc:postgresql://" + host + ":" + port + "/" + database + query.map(q -> "?" + q).orElse("");
        }

        @Override
        public String display() {
            return "postgres://" + user + (password.isPresent() ? ":***" : "") + "@" + host + ":" + port + "/"
                    + database + query.map(q -> "?" + q).orElse("");
        }

        @Override
        public String toString() {
            return display();
        }

        // RFC 3986 §2.1 percent-decoding; unlike URLDecoder it leaves '+' alone.
        private static String percentDecode(String raw) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (int i = 0; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (c != '%') {
                    bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                    continue;
                }
                if (i + 2 >= raw.length()) {
                    throw new IllegalArgumentException("postgres URL has a broken %-escape");
                }
                int value = Character.digit(raw.charAt(i + 1), 16) << 4 | Character.digit(raw.charAt(i + 2), 16);
                if (value < 0) {
                    throw new IllegalArgumentException("postgres URL has a broken %-escape");
                }
                bytes.write(value);
                i += 2;
            }
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }
}
