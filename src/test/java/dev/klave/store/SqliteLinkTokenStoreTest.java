package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteLinkTokenStoreTest extends LinkTokenStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
