package dev.klave.oauth;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;

class PostgresSessionRoutesTest extends SessionRoutesTest {
    @Override
    protected TestingKlave startKlave(TestingClock clock) {
        return TestingKlave.startOnPostgres(clock, settings -> settings);
    }
}
