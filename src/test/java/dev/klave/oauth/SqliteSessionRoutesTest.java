package dev.klave.oauth;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;

class SqliteSessionRoutesTest extends SessionRoutesTest {
    @Override
    protected TestingKlave startKlave(TestingClock clock) {
        return TestingKlave.start(clock, settings -> settings);
    }
}
