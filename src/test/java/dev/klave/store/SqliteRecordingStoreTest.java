package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteRecordingStoreTest extends RecordingStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
