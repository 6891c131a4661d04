package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteSyncReportStoreTest extends SyncReportStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
