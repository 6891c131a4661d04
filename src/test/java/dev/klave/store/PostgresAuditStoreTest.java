package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresAuditStoreTest extends AuditStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
