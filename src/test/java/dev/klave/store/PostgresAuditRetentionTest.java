package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresAuditRetentionTest extends AuditRetentionConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
