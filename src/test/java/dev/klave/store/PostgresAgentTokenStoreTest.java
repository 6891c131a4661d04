package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresAgentTokenStoreTest extends AgentTokenStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
