package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresExternalIdentityStoreTest extends ExternalIdentityStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
