package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresThrottleStoreTest extends ThrottleStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
