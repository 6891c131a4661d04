package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteCredentialStoreTest extends CredentialStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
