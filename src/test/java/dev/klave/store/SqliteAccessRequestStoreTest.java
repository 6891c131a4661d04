package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteAccessRequestStoreTest extends AccessRequestStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
