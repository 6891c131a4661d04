package dev.klave.account;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;

class SqliteAccountFlowTest extends AccountFlowTest {
    @Override
    protected TestingKlave startKlave(TestingClock clock) {
        return TestingKlave.start(clock, settings -> settings.with("SERVICE_TRUSTED_PROXIES", "127.0.0.1"));
    }
}
