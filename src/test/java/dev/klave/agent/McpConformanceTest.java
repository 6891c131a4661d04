package dev.klave.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The MCP conformance suite against {@code /mcp}: 0.1.16 for 2025-11-25, and 0.2.0-alpha.12 with
 * the frozen 2026-07-28 requirement set (on Node 22). Scenarios that call the reference server's
 * fixture tools ({@code test_*}), prompts or resources cannot pass on a Kubernetes server: each is
 * listed, with its reason, in the expected-failures file of its revision; every other scenario
 * must pass. The suite sends no bearer token itself: {@code bearer.mjs} adds the bot's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpConformanceTest {
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingAgents.Bot bot;
    private String url;

    @BeforeAll
    void start() {
        NodeClients.requireInstalled();
        cluster = ClusterSimulator.builder().start();
        // The suite sets no rate of its own; a few hundred requests in a minute are expected.
        klave = TestingKlave.startAtOwnAddress(new TestingClock(), settings -> settings.with(
                "SERVICE_MCP_RATE_LIMIT", "100000"));
        bot = TestingAgents.bot(klave, cluster, "prod-1", "checker", "view", "team-a");
        url = "http://127.0.0.1:" + klave.port() + "/mcp";
    }

    @AfterAll
    void stop() {
        if (klave != null) {
            klave.close();
            cluster.close();
        }
    }

    private Map<String, String> bearer() {
        return Map.of("MCP_BEARER", bot.token(), "MCP_TARGET", url, "NODE_OPTIONS", "--import=./bearer.mjs");
    }

    @Test
    void theLegacyRevisionPassesEveryScenarioItCan() {
        NodeClients.Run run = NodeClients.run(List.of(NodeClients.NODE_22.toString(),
                "node_modules/@modelcontextprotocol/conformance/dist/index.js",
                "server", "--url", url, "--expected-failures", "expected-failures-2025-11-25.yaml"), bearer(), 600);

        assertThat(run.exit()).as(run.toString()).isZero();
    }

    @Test
    void theStatelessRevisionPassesItsRequirementsExceptTheFixtures() {
        NodeClients.Run run = NodeClients.run(List.of(NodeClients.NODE_22.toString(),
                "node_modules/conformance-next/dist/index.js", "server", "--url", url, "--requirements", "2026-07-28",
                "--expected-failures", "expected-failures-2026-07-28.yaml"), bearer(), 600);

        assertThat(run.exit()).as(run.toString()).isZero();
    }
}
