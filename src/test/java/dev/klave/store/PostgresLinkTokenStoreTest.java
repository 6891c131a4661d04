package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresLinkTokenStoreTest extends LinkTokenStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
