package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteCiStoreTest extends CiStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
