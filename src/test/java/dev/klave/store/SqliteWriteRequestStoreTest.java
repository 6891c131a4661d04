package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteWriteRequestStoreTest extends WriteRequestStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
