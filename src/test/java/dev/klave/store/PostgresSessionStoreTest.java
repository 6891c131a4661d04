package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresSessionStoreTest extends SessionStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
