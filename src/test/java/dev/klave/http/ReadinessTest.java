package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.config.DatabaseUrl;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPostgres;
import dev.klave.testing.TestingTcpProxy;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code /readyz} follows the database (spec 1 §4: 503 {@code database unavailable} when it does
 * not answer within 2 s). This test owns a PostgreSQL server so that it can stop it.
 */
class ReadinessTest {
    @Test
    void readinessTurns503WhenTheDatabaseStopsWhileLivenessStaysOk() throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        TestingKlave klave = null;
        try {
            String url = "postgres://postgres@127.0.0.1:" + postgres.getPort() + "/postgres";
            klave = TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_DATABASE_URL", url));
            assertThat(klave.http().get("/readyz").body()).isEqualTo("ok");

            postgres.close();

            long started = System.nanoTime();
            HttpResponse<String> readiness = klave.http().get("/readyz");
            assertThat(readiness.statusCode()).isEqualTo(503);
            assertThat(readiness.body()).isEqualTo("database unavailable");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
            assertThat(klave.http().get("/healthz").statusCode()).isEqualTo(200);
        } finally {
            if (klave != null) {
                klave.close();
            }
            postgres.close();
        }
    }

    @Test
    void readinessGivesUpAfterTwoSecondsWhenTheDatabaseHangs() throws Exception {
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        try (TestingTcpProxy hanging = new TestingTcpProxy(database.port())) {
            String url = "postgres://" + database.user() + "@127.0.0.1:" + hanging.port() + "/" + database.database();
            TestingKlave klave = TestingKlave.start(new TestingClock(),
                    settings -> settings.with("SERVICE_DATABASE_URL", url));
            try {
                assertThat(klave.http().get("/readyz").statusCode()).isEqualTo(200);
                hanging.freeze();

                long started = System.nanoTime();
                HttpResponse<String> readiness = klave.http().get("/readyz");
                Duration elapsed = Duration.ofNanos(System.nanoTime() - started);

                assertThat(readiness.statusCode()).isEqualTo(503);
                assertThat(readiness.body()).isEqualTo("database unavailable");
                assertThat(elapsed).isBetween(Duration.ofMillis(1_900), Duration.ofMillis(3_500));
            } finally {
                hanging.close();
                klave.close();
            }
        } finally {
            TestingPostgres.drop(database);
        }
    }
}
