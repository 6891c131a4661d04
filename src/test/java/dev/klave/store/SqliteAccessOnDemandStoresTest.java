package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteAccessOnDemandStoresTest extends AccessOnDemandStoresConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
