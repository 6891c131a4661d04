package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteLeaseStoreTest extends LeaseStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
