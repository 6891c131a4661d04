package dev.klave.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingAgentLogin;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** {@code SERVICE_MCP_ENABLED} and {@code SERVICE_MCP_RATE_LIMIT} (spec 3 §4 "Switch", §8). */
class McpSwitchesTest {
    @Test
    void switchedOffEveryAgentPathIs404() {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start()) {
            TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings.with(
                    "SERVICE_MCP_ENABLED", "false"));
            try {
                TestingAgents.Bot bot = TestingAgents.bot(klave, cluster, "prod-1", "deployer", "view", "team-a");
                McpClient.Answer answer = new McpClient(klave.http(), bot.token()).legacy("tools/list", null);
                HttpResponse<String> get = klave.http().get("/mcp");

                assertThat(answer.status()).isEqualTo(404);
                assertThat(get.statusCode()).isEqualTo(404);
                assertThat(klave.http().get("/.well-known/oauth-authorization-server").statusCode()).isEqualTo(404);
                assertThat(klave.http().send("POST", "/oauth/token", "", "Content-Type",
                        "application/x-www-form-urlencoded").statusCode()).isEqualTo(404);
                assertThat(klave.http().get("/.well-known/oauth-protected-resource/mcp").statusCode()).isEqualTo(404);
                HttpResponse<String> register = klave.http().send("POST", "/oauth/register",
                        "{\"redirect_uris\":[\"http://127.0.0.1/cb\"]}", "Content-Type", "application/json");
                assertThat(register.statusCode()).isEqualTo(404);
                assertThat(register.body()).isEqualTo(
                        "{\"error\":\"invalid_request\",\"error_description\":\"no encontrado\"}");
            } finally {
                klave.close();
            }
        }
    }

    @Test
    void pastItsRateACredentialGets429UntilTheMinuteHasPassed() {
        TestingClock clock = new TestingClock();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start()) {
            TestingKlave klave = TestingKlave.start(clock, settings -> settings.with("SERVICE_MCP_RATE_LIMIT", "3"));
            try {
                TestingAgents.Bot bot = TestingAgents.bot(klave, cluster, "prod-1", "deployer", "view", "team-a");
                TestingAgents.Bot other = TestingAgents.another(klave, cluster, bot.admin(), "prod-1", "other",
                        "view", "team-a");
                McpClient mcp = new McpClient(klave.http(), bot.token());
                for (int i = 0; i < 3; i++) {
                    assertThat(mcp.legacy("ping", null).status()).isEqualTo(200);
                }
                McpClient.Answer limited = mcp.legacy("ping", null);

                assertThat(limited.status()).isEqualTo(429);
                assertThat(limited.body().path("error").asText()).contains("demasiadas llamadas a /mcp");
                assertThat(new McpClient(klave.http(), other.token()).legacy("ping", null).status()).isEqualTo(200);
                // The rate-limit issue: every 429 says when; retrying meanwhile does not push it back.
                long told = Long.parseLong(limited.response().headers().firstValue("Retry-After").orElseThrow());
                assertThat(told).isBetween(1L, 60L);
                for (int retry = 0; retry < 5; retry++) {
                    clock.advance(java.time.Duration.ofSeconds(told / 6));
                    assertThat(mcp.legacy("ping", null).status()).isEqualTo(429);
                }
                clock.advance(java.time.Duration.ofSeconds(told - 5 * (told / 6)));
                assertThat(mcp.legacy("ping", null).status()).as("served when told").isEqualTo(200);
            } finally {
                klave.close();
            }
        }
    }

    @Test
    void aDelegatedAgentsRateCountsPerSessionWhateverTokenItRefreshedTo() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start()) {
            TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings.with(
                    "SERVICE_MCP_RATE_LIMIT", "3"));
            try {
                TestingAgents.Bot bot = TestingAgents.bot(klave, cluster, "prod-1", "deployer", "view", "team-a");
                String person = TestingPeople.signUp(klave, "ana", false);
                String id = McpClient.JSON.readTree(klave.http().get("/api/me", "Cookie", person).body()).path("id")
                        .asText();
                klave.http().send("POST", "/api/grants", "{\"subject_id\":\"" + id + "\",\"cluster_id\":\"prod-1\","
                        + "\"tier\":\"view\",\"scope\":\"team-a\"}", "Cookie", bot.admin());
                TestingAgentLogin.Tokens first = TestingAgentLogin.login(klave, person, "[{\"cluster\":\"prod-1\","
                        + "\"role\":\"view\",\"scope\":\"team-a\"}]", false);
                for (int i = 0; i < 2; i++) {
                    assertThat(new McpClient(klave.http(), first.accessToken()).legacy("ping", null).status())
                            .isEqualTo(200);
                }
                String refreshed = McpClient.JSON.readTree(TestingAgentLogin.refresh(klave, first).body())
                        .path("access_token").asText();
                McpClient again = new McpClient(klave.http(), refreshed);

                assertThat(again.legacy("ping", null).status()).isEqualTo(200);
                assertThat(again.legacy("ping", null).status()).isEqualTo(429);
                assertThat(new McpClient(klave.http(), bot.token()).legacy("ping", null).status()).isEqualTo(200);
            } finally {
                klave.close();
            }
        }
    }
}
