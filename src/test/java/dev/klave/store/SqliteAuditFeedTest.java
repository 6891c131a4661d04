package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteAuditFeedTest extends AuditFeedConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
