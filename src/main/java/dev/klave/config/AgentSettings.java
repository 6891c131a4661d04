package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * The agent endpoint's switches and limits (spec 3 §4 "MCP endpoint", §8).
 *
 * @param mcpEnabled {@code SERVICE_MCP_ENABLED}: off makes {@code /mcp} and every login endpoint 404
 * @param mcpRateLimit {@code SERVICE_MCP_RATE_LIMIT}: calls per minute per credential, then 429
 * @param approvalWait {@code SERVICE_AGENT_APPROVAL_WAIT}: how long a repeated write call waits for
 *     a person's decision, 0 to 4 minutes (0 answers at once)
 * @param hideCredentials {@code SERVICE_MCP_HIDE_CREDENTIALS}: values that look like credentials
 *     outside Secrets are hidden from agents (issue 43), on by default
 */
public record AgentSettings(boolean mcpEnabled, int mcpRateLimit, Duration approvalWait, boolean hideCredentials) {
    public static final Duration LONGEST_WAIT = Duration.ofMinutes(4);
    public static final AgentSettings DEFAULTS = new AgentSettings(true, 120, Duration.ofSeconds(50), true);

    public AgentSettings {
        if (mcpRateLimit < 1) {
            throw new IllegalArgumentException("mcpRateLimit must be positive");
        }
        requireNonNull(approvalWait, "approvalWait is null");
        if (approvalWait.isNegative() || approvalWait.compareTo(LONGEST_WAIT) > 0) {
            throw new IllegalArgumentException("must be between 0s and 4m");
        }
    }

    /** A wait of 0 to 4 minutes, as {@link Durations} reads it. */
    static Duration parseWait(String text) {
        Duration wait = Durations.parse(text);
        if (wait.isNegative() || wait.compareTo(LONGEST_WAIT) > 0) {
            throw new IllegalArgumentException("must be between 0s and 4m");
        }
        return wait;
    }
}
