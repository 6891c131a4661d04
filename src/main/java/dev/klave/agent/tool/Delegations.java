package dev.klave.agent.tool;

import dev.klave.oauth.Permission;
import java.util.List;
import java.util.Optional;

/**
 * What a delegated agent's session allows now: the permissions its person chose, and those
 * approved since (see {@code oauth.SessionBearers#allowed}). The gateway admits by the same rule;
 * the tools read it to say where the agent may act ({@code whoami}, {@code list_clusters}).
 */
@FunctionalInterface
public interface Delegations {
    /** The permissions the session allows now; empty when the session is not there. */
    Optional<List<Permission>> allowed(String sessionId);
}
