package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.klave.testing.RawExchange;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

/**
 * A refusal anyone can provoke without a credential is an answer, never an error in the log: a
 * flood of malformed paths must not fill the error log (the agent-safety review: a refused path of
 * a request without a body logged an {@code IllegalStateException} each time).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RefusalLogsTest {
    private TestingKlave klave;
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        logged.start();
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(logged);
    }

    @AfterAll
    void stop() {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(logged);
        klave.close();
    }

    @Test
    void refusedPathsWithoutACredentialLeaveNoErrorInTheLog() throws Exception {
        for (String target : new String[] {"/clusters/prod/api/v1/namespaces/%2e%2e/pods",
            "/clusters/prod/api/v1/namespaces/a#b/pods", "/clusters/Prod_1/api", "/clusters/prod/api//v1"}) {
            RawExchange answer = RawExchange.send(klave.port(), "GET " + target + " HTTP/1.1\r\nHost: x\r\n"
                    + "Connection: close\r\n\r\n");
            assertThat(answer.text()).startsWith("HTTP/1.1 400");
        }
        // Each refusal's row is written before its answer is sent; what the answering task throws
        // after sending is logged by its event loop: in tests, the one loop of Klave's one listener
        // (KlaveHttpServer). Once that loop has answered a later request, all of it is logged.
        assertThat(RawExchange.send(klave.port(), "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .text()).startsWith("HTTP/1.1 200");

        assertThat(logged.list).noneMatch(event -> event.getLevel().isGreaterOrEqual(Level.ERROR));
    }
}
