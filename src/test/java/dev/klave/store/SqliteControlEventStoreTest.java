package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteControlEventStoreTest extends ControlEventStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
