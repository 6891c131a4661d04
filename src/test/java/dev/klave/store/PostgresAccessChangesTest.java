package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresAccessChangesTest extends AccessChangesConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
