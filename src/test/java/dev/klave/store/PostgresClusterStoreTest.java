package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresClusterStoreTest extends ClusterStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
