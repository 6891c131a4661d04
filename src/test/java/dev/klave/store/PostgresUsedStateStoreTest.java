package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresUsedStateStoreTest extends UsedStateStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
