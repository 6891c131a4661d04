package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresDiscoveryStatusStoreTest extends DiscoveryStatusStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
