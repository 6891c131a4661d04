package dev.klave.agent.tool;

import dev.klave.access.Grant;
import java.util.List;

/**
 * Which of its person's grants a delegated agent's session may use now: those carrying a
 * permission chosen on the consent page, or one approved since — until its minutes end (see
 * {@code oauth.SessionBearers#reach}). The gateway admits by the same rule; the tools read it to
 * say where the agent may act ({@code whoami}, {@code list_clusters}).
 */
@FunctionalInterface
public interface Delegations {
    /** Of {@code active}, the grants the session may use; none when the session is not there. */
    List<Grant> reach(String sessionId, List<Grant> active);
}
