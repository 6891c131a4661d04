package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresLeaseStoreTest extends LeaseStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
