package dev.klave.agent;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Subject;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import dev.klave.credential.Credential;
import dev.klave.credential.CredentialStore;
import dev.klave.crypto.TokenHash;
import dev.klave.gateway.Bearers;
import dev.klave.messages.Message;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Spec 3 §5 1: {@code /mcp} accepts only {@code Authorization: Bearer klt_…} naming a bot's
 * credential that is valid now (not revoked, not expired, its bot enabled). Anything else is 401,
 * whose challenge the route adds. Whether the bot may reach a given cluster is the gateway's to
 * say, on each request a tool sends.
 */
public final class AgentAuthenticator {
    private final CredentialStore credentials;
    private final SubjectStore subjects;
    private final Predicate<Subject> writesNeedApproval;
    private final Clock clock;

    public AgentAuthenticator(CredentialStore credentials, SubjectStore subjects, Predicate<Subject> writesNeedApproval,
            Clock clock) {
        this.credentials = requireNonNull(credentials, "credentials is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.writesNeedApproval = requireNonNull(writesNeedApproval, "writesNeedApproval is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** @throws dev.klave.messages.Refusal 401 for anything but a valid bot credential */
    public Agent authenticate(Optional<String> authorization) {
        TokenHash token = Bearers.token(authorization);
        Credential credential = credentials.findByTokenHash(token.hex())
                .orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
        if (credential.revoked()) {
            throw Message.CREDENTIAL_REVOKED.refusal();
        }
        if (credential.expiredAt(clock.instant())) {
            throw Message.CREDENTIAL_EXPIRED.refusal();
        }
        Subject owner = subjects.findById(credential.subjectId())
                .orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
        if (owner.kind() != SubjectKind.BOT || !owner.enabled()) {
            throw Message.MCP_CREDENTIAL_NOT_ACCEPTED.refusal();
        }
        return Agent.bot(owner, credential, authorization.orElseThrow(), writesNeedApproval.test(owner));
    }
}
