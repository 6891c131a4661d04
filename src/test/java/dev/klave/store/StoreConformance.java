package dev.klave.store;

import dev.klave.testing.TestingDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of the conformance suites: one migrated database per test class, of the dialect the
 * concrete class names. Tests in a class share it, so each test uses names of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StoreConformance {
    private TestingDatabase fixture;

    /** SQLite or PostgreSQL. */
    protected abstract TestingDatabase openDatabase();

    @BeforeAll
    final void openFixture() {
        fixture = openDatabase();
        setUp(fixture.database());
    }

    /** Builds the store under test on the fresh database. */
    protected abstract void setUp(Database database);

    protected final Database database() {
        return fixture.database();
    }

    @AfterAll
    final void closeFixture() {
        if (fixture != null) {
            fixture.close();
        }
    }
}
