package dev.klave.agent.approval;

import dev.klave.account.Principal;
import dev.klave.account.SubjectId;
import java.util.Optional;

/**
 * Who may see and decide a request: its decider (the person a delegated agent acts for, who may
 * decide their own agent's requests), or an administrator when it has none (a bot's). Nobody else,
 * administrators included: a person's agent waits for that person.
 */
final class DecisionRights {
    private DecisionRights() {}

    static boolean allows(Optional<SubjectId> decider, Principal caller) {
        return decider.map(caller.subjectId()::equals).orElse(caller.admin());
    }

    /**
     * For an access request (issue 41): a delegated agent's, its person alone; any other — a bot's,
     * a person's own — whoever decides its cluster under {@code policy}, never its requester.
     */
    static boolean allows(AccessRequest request, AccessPolicy policy, Principal caller) {
        if (request.decider().isPresent()) {
            return request.decider().get().equals(caller.subjectId());
        }
        return !request.actor().subject().equals(caller.subjectId()) && policy.decidedBy(caller);
    }
}
