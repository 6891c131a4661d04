package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteUsedStateStoreTest extends UsedStateStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
