package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Subject;
import dev.klave.account.SubjectKind;
import dev.klave.audit.Channel;
import dev.klave.gateway.Bearer;
import java.time.Instant;
import java.util.Optional;

/**
 * Who calls {@code /mcp}, resolved once per request at its edge (spec 3 §5): a bot with its
 * credential, or — with the agents' login — a delegated agent in a session its person opened,
 * whose permissions are a subset of the person's and whose writes may wait for that person. The
 * tools' cluster calls are admitted as its {@link #bearer()}; the token it presented goes no further
 * than the edge.
 *
 * @param account the bot, or the person a delegated agent acts for
 * @param bearer the bot's credential, or the delegated agent's session
 * @param sessionExpiresAt when a delegated agent's session ends; empty for a bot
 * @param writesNeedApproval a bot's writes-need-approval setting, or the session's own
 */
public record Agent(Subject account, Bearer bearer, Optional<Instant> sessionExpiresAt, boolean writesNeedApproval) {
    public Agent {
        requireNonNull(account, "account is null");
        requireNonNull(bearer, "bearer is null");
        requireNonNull(sessionExpiresAt, "sessionExpiresAt is null");
        if (!bearer.owner().equals(account.id())) {
            throw new IllegalArgumentException("an agent acts as its bearer's owner");
        }
        boolean delegated = bearer instanceof Bearer.OfSession;
        if (delegated != (account.kind() == SubjectKind.PERSON) || delegated != sessionExpiresAt.isPresent()) {
            throw new IllegalArgumentException("a bot calls /mcp with its credential, a person's agent with a session");
        }
    }

    /** A bot calling with its own credential. */
    public static Agent bot(Subject bot, Bearer.OfCredential credential, boolean writesNeedApproval) {
        return new Agent(bot, credential, Optional.empty(), writesNeedApproval);
    }

    /** A delegated agent in its person's session. */
    public static Agent delegated(Subject person, Bearer.OfSession session, Instant sessionExpiresAt,
            boolean writesNeedApproval) {
        return new Agent(person, session, Optional.of(sessionExpiresAt), writesNeedApproval);
    }

    /** A delegated agent's session id; empty for a bot. */
    public Optional<String> session() {
        return bearer instanceof Bearer.OfSession session ? Optional.of(session.sessionId()) : Optional.empty();
    }

    /** A bot's credential id; empty for a delegated agent, whose session names it. */
    public Optional<String> credentialId() {
        return bearer instanceof Bearer.OfCredential credential ? Optional.of(credential.id()) : Optional.empty();
    }

    /** Who decides this agent's held writes and access requests: its person; empty for a bot (administrators). */
    public Optional<dev.klave.account.SubjectId> decider() {
        return session().map(id -> account.id());
    }

    public boolean delegated() {
        return session().isPresent();
    }

    /** Spec 3 §8: the rate limit counts per credential, or per session for a delegated agent. */
    public String rateKey() {
        return session().map(id -> "mcp:session:" + id).orElseGet(() -> "mcp:credential:" + bearer.id());
    }

    /** The audit channel of a request a tool sends (spec 3 "Tool rules" 3). */
    public Channel channel(String tool) {
        return session().map(id -> Channel.tool(tool, id)).orElse(Channel.tool(tool));
    }

    @Override
    public String toString() {
        return "Agent[" + dev.klave.access.KubernetesIdentity.userName(account) + ", "
                + session().map(id -> "session " + id).orElseGet(() -> "credential " + bearer.id()) + "]";
    }
}
