package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteExternalIdentityStoreTest extends ExternalIdentityStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
