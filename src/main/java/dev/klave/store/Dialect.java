package dev.klave.store;

/** The two SQL dialects; each has its own migrations under {@code db/migration/<name>}. */
public enum Dialect {
    SQLITE("sqlite"),
    POSTGRES("postgres");

    private final String migrationFolder;

    Dialect(String migrationFolder) {
        this.migrationFolder = migrationFolder;
    }

    String migrationLocation() {
        return "classpath:db/migration/" + migrationFolder;
    }
}
