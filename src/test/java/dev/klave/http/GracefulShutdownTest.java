package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.storage.DatabaseUnavailableException;
import dev.klave.store.Database;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** SIGTERM's order: readiness fails first, requests finish, the database closes last. */
class GracefulShutdownTest {
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    private TestingKlave startWithSlowRoute(String delay, String timeout) {
        return TestingKlave.start(new TestingClock(), settings -> settings
                        .with("SERVICE_SHUTDOWN_DELAY", delay)
                        .with("SERVICE_SHUTDOWN_TIMEOUT", timeout),
                routes -> routes.get("/api/probe/slow", Access.ANONYMOUS, request -> {
                    entered.countDown();
                    release.await();
                    return ApiResponse.ok(Map.of("finished", true));
                }));
    }

    private static CompletableFuture<HttpResponse<String>> slowRequest(int port) {
        HttpClient client = HttpClient.newHttpClient();
        return client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/probe/slow"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void readinessFailsFirstThenTheRequestInFlightFinishesThenTheDatabaseCloses() throws Exception {
        TestingKlave klave = startWithSlowRoute("2s", "20s");
        int port = klave.port();
        Database database = klave.klave().database();
        CompletableFuture<HttpResponse<String>> inFlight = slowRequest(port);
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> stopping = CompletableFuture.runAsync(klave::close);

        HttpResponse<String> readiness = awaitReadiness503(klave);
        assertThat(readiness.body()).isEqualTo("shutting down");
        assertThat(klave.http().get("/healthz").statusCode()).isEqualTo(200);
        assertThat(inFlight).isNotDone();
        assertThat(database.answersWithin(Duration.ofSeconds(2))).isTrue();

        release.countDown();

        HttpResponse<String> finished = inFlight.get(10, TimeUnit.SECONDS);
        assertThat(finished.statusCode()).isEqualTo(200);
        assertThat(finished.body()).isEqualTo("{\"finished\":true}");
        stopping.get(20, TimeUnit.SECONDS);
        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> database.withHandle(handle -> handle.select("SELECT 1").mapTo(Integer.class).one()))
                .isInstanceOf(DatabaseUnavailableException.class);
    }

    @Test
    void requestThatOutlastsTheTimeoutIsCutAndTheStopStillCompletes() throws Exception {
        TestingKlave klave = startWithSlowRoute("0s", "1s");
        CompletableFuture<HttpResponse<String>> inFlight = slowRequest(klave.port());
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        long started = System.nanoTime();
        klave.close();

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
        // Cut either way: the connection is closed, or the work is interrupted and answered 503.
        try {
            HttpResponse<String> cut = inFlight.get(10, TimeUnit.SECONDS);
            assertThat(cut.statusCode()).isEqualTo(503);
            assertThat(cut.body()).isEqualTo("{\"error\":\"Klave se está reiniciando\"}");
        } catch (java.util.concurrent.ExecutionException closed) {
            assertThat(closed.getCause()).isInstanceOf(IOException.class);
        }
        release.countDown();
    }

    private static HttpResponse<String> awaitReadiness503(TestingKlave klave) {
        return Eventually.value("/readyz turning 503 after the stop began", Duration.ofSeconds(5),
                () -> Optional.of(klave.http().get("/readyz")).filter(response -> response.statusCode() == 503));
    }
}
