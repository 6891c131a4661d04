package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteThrottleStoreTest extends ThrottleStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
