package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteClientStoreTest extends ClientStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
