package dev.klave.audit;

import dev.klave.testing.TestingDatabase;

class PostgresAuditWriterTest extends AuditWriterConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
