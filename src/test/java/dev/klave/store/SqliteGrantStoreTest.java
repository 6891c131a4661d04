package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteGrantStoreTest extends GrantStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
