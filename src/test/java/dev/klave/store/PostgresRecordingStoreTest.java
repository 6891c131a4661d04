package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresRecordingStoreTest extends RecordingStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
