package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresSyncReportStoreTest extends SyncReportStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
