package dev.klave.store;

import dev.klave.testing.TestingDatabase;

class SqliteWriterTurnsTest extends WriterTurnsConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }
}
