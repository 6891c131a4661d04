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
}
