package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.proxy.AccessChanges;

/** {@link AccessChanges} as the one row that the V7 migration's triggers move forward. */
public final class JdbiAccessChanges implements AccessChanges {
    private final Database database;

    public JdbiAccessChanges(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public long generation() {
        return database.withHandle(handle -> handle.createQuery("SELECT generation FROM access_changes WHERE id = 1")
                .mapTo(Long.class)
                .one());
    }
}
