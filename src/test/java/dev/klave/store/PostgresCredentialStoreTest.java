package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresCredentialStoreTest extends CredentialStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
