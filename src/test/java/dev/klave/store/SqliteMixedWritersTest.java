package dev.klave.store;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingSettings;
import java.util.function.UnaryOperator;

class SqliteMixedWritersTest extends MixedWritersConformance {
    @Override
    protected TestingKlave start(UnaryOperator<TestingSettings> settings) {
        return TestingKlave.startHttps(new TestingClock(), settings);
    }

    /** What the checkpoint thread does each second, starting the log over each time (RESTART). */
    @Override
    protected void checkpoint(Database database) {
        database.checkpointNow();
    }
}
