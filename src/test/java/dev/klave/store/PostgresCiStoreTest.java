package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresCiStoreTest extends CiStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
