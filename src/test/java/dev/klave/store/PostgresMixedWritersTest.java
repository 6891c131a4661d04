package dev.klave.store;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingSettings;
import java.util.function.UnaryOperator;

class PostgresMixedWritersTest extends MixedWritersConformance {
    @Override
    protected TestingKlave start(UnaryOperator<TestingSettings> settings) {
        return TestingKlave.startHttpsOnPostgres(new TestingClock(), settings);
    }

    /** PostgreSQL's own: every dirty page written and flushed (the test's role is a superuser). */
    @Override
    protected void checkpoint(Database database) {
        database.withHandle(handle -> handle.execute("CHECKPOINT"));
    }
}
