package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresClientStoreTest extends ClientStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
