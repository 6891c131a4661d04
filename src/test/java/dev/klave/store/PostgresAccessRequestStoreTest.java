package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresAccessRequestStoreTest extends AccessRequestStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
