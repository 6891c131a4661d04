package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresSubjectStoreTest extends SubjectStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
