package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class PostgresWriterTurnsTest extends WriterTurnsConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }
}
