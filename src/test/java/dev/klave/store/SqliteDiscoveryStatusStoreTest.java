package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteDiscoveryStatusStoreTest extends DiscoveryStatusStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
