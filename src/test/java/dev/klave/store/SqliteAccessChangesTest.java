package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteAccessChangesTest extends AccessChangesConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
