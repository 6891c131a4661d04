package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresWriteRequestStoreTest extends WriteRequestStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
