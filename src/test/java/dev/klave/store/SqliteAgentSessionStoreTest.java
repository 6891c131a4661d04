package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteAgentSessionStoreTest extends AgentSessionStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
