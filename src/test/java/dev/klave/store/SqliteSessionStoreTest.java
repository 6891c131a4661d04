package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteSessionStoreTest extends SessionStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
