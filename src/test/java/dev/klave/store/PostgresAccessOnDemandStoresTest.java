package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresAccessOnDemandStoresTest extends AccessOnDemandStoresConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
