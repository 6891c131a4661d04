package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteSubjectStoreTest extends SubjectStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
