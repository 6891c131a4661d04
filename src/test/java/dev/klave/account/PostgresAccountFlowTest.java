package dev.klave.account;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;

class PostgresAccountFlowTest extends AccountFlowTest {
    @Override
    protected TestingKlave startKlave(TestingClock clock) {
        return TestingKlave.startOnPostgres(clock, settings -> settings.with("SERVICE_TRUSTED_PROXIES", "127.0.0.1"));
    }
}
