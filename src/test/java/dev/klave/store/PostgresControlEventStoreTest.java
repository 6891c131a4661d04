package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresControlEventStoreTest extends ControlEventStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
