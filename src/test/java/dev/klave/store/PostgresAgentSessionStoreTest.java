package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresAgentSessionStoreTest extends AgentSessionStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
