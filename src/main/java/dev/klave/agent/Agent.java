package dev.klave.agent;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Subject;
import dev.klave.account.SubjectKind;
import dev.klave.audit.Channel;
import dev.klave.credential.Credential;
import java.time.Instant;
import java.util.Optional;

/**
 * Who calls {@code /mcp}, resolved once per request (spec 3 §5): a bot with its credential, or —
 * with the agents' login — a delegated agent in a session its person opened, whose permissions are
 * a subset of the person's and whose writes may wait for that person. {@code authorization} is
 * what the gateway admits each cluster request with.
 *
 * @param account the bot, or the person a delegated agent acts for
 * @param session a delegated agent's session id; empty for a bot
 * @param sessionExpiresAt when that session ends
 * @param writesNeedApproval a bot's writes-need-approval setting, or the session's own
 */
public record Agent(Subject account, Credential credential, String authorization, Optional<String> session,
        Optional<Instant> sessionExpiresAt, boolean writesNeedApproval) {
    public Agent {
        requireNonNull(account, "account is null");
        requireNonNull(credential, "credential is null");
        requireNonNull(authorization, "authorization is null");
        requireNonNull(session, "session is null");
        requireNonNull(sessionExpiresAt, "sessionExpiresAt is null");
        if (session.isEmpty() && account.kind() != SubjectKind.BOT) {
            throw new IllegalArgumentException("without a session only a bot calls /mcp");
        }
    }

    /** A bot calling with its own credential. */
    public static Agent bot(Subject bot, Credential credential, String authorization, boolean writesNeedApproval) {
        return new Agent(bot, credential, authorization, Optional.empty(), Optional.empty(), writesNeedApproval);
    }

    /** A delegated agent in its person's session; {@code credential} stands for the session. */
    public static Agent delegated(Subject person, Credential session, String authorization, String sessionId,
            Instant sessionExpiresAt, boolean writesNeedApproval) {
        return new Agent(person, session, authorization, Optional.of(sessionId), Optional.of(sessionExpiresAt),
                writesNeedApproval);
    }

    /** Who decides this agent's held writes and access requests: its person; empty for a bot (administrators). */
    public Optional<dev.klave.account.SubjectId> decider() {
        return session.map(id -> account.id());
    }

    public boolean delegated() {
        return session.isPresent();
    }

    /** Spec 3 §8: the rate limit counts per credential, or per session for a delegated agent. */
    public String rateKey() {
        return session.map(id -> "mcp:session:" + id).orElseGet(() -> "mcp:credential:" + credential.id());
    }

    /** The audit channel of a request a tool sends (spec 3 "Tool rules" 3). */
    public Channel channel(String tool) {
        return session.map(id -> Channel.tool(tool, id)).orElse(Channel.tool(tool));
    }

    /** Never the token: an agent may end up in a log line. */
    @Override
    public String toString() {
        return "Agent[" + dev.klave.access.KubernetesIdentity.userName(account) + ", credential " + credential.id()
                + session.map(id -> ", session " + id).orElse("") + "]";
    }
}
