package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresGrantStoreTest extends GrantStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
