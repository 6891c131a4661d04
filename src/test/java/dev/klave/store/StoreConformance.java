package dev.klave.store;

import dev.klave.account.Login;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.testing.TestingDatabase;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of the conformance suites: one migrated database per test class, of the dialect the
 * concrete class names. Tests in a class share it, so each test uses names of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StoreConformance {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

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

    /** A person stored with a login of its own (other rows reference subjects). */
    protected final SubjectId storedPerson(String prefix) {
        Subject person = Subject.newPerson(new Login(prefix + "-" + SEQUENCE.incrementAndGet()), "P",
                Optional.empty(), false, false, Instant.parse("2026-11-25T10:00:00Z"));
        new JdbiSubjectStore(fixture.database()).create(person);
        return person.id();
    }

    @AfterAll
    final void closeFixture() {
        if (fixture == null) {
            return;
        }
        // Issue 51 §6: on SQLite a write outside a transaction waits for the lock in SQLite's busy
        // handler, pinning a virtual thread's carrier; every store writes through Database.write.
        java.util.Set<String> outside = fixture.database().writesOutsideTransactions();
        fixture.close();
        org.assertj.core.api.Assertions.assertThat(outside).as("writes outside Database.write or inTransaction")
                .isEmpty();
    }
}
