package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteAuditStoreTest extends AuditStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
