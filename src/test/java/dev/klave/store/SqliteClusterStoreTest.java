package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteClusterStoreTest extends ClusterStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
