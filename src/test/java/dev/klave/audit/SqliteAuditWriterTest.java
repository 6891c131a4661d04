package dev.klave.audit;

import dev.klave.testing.TestingDatabase;

class SqliteAuditWriterTest extends AuditWriterConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
