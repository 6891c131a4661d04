package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteAgentTokenStoreTest extends AgentTokenStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
