package dev.klave.agent;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Subject;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import dev.klave.agent.tool.Agent;
import dev.klave.gateway.Bearer;
import dev.klave.gateway.BearerResolver;
import dev.klave.gateway.Bearers;
import dev.klave.messages.Message;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Spec 3 §5 1: {@code /mcp} accepts only {@code Authorization: Bearer klt_…} naming, valid now,
 * a bot's credential (its bot enabled) or a delegated agent's access token (its session open, its
 * person enabled). Anything else is 401, whose challenge the route adds. Whether the agent may
 * reach a given cluster is the gateway's to say, on each request a tool sends.
 */
public final class AgentAuthenticator {
    /** A session's last use is shown to its person; a minute's precision spares a write per call. */
    private static final Duration TOUCH_EVERY = Duration.ofMinutes(1);

    private final BearerResolver bearers;
    private final SubjectStore subjects;
    private final Predicate<Subject> writesNeedApproval;
    private final SessionTouch touch;
    private final Clock clock;

    /** Notes a session's use (its "last use"). */
    @FunctionalInterface
    public interface SessionTouch {
        void touch(String sessionId, Instant at);
    }

    public AgentAuthenticator(BearerResolver bearers, SubjectStore subjects, Predicate<Subject> writesNeedApproval,
            SessionTouch touch, Clock clock) {
        this.bearers = requireNonNull(bearers, "bearers is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.writesNeedApproval = requireNonNull(writesNeedApproval, "writesNeedApproval is null");
        this.touch = requireNonNull(touch, "touch is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** @throws dev.klave.messages.Refusal 401 for anything but a valid bot credential or agent access token */
    public Agent authenticate(Optional<String> authorization) {
        Bearer bearer = bearers.resolve(Bearers.token(authorization), BearerResolver.Edge.AGENT);
        Instant now = clock.instant();
        Agent agent = admitted(bearer, now);
        if (bearer instanceof Bearer.OfSession session && session.session().lastUsedAt()
                .map(last -> !now.isBefore(last.plus(TOUCH_EVERY))).orElse(true)) {
            touch.touch(session.sessionId(), now);
        }
        return agent;
    }

    /**
     * Checks, again, that an agent's bearer still admits it — by its id, not its token, which
     * went no further than the edge: after a long wait, before an approved write runs.
     *
     * @throws dev.klave.messages.Refusal when it no longer does
     */
    public void stillValid(Agent agent) {
        admitted(bearers.again(agent.bearer().id()), clock.instant());
    }

    private Agent admitted(Bearer bearer, Instant now) {
        Optional<Message> refused = bearer.refusedAt(now);
        if (refused.isPresent()) {
            throw refused.get().refusal();
        }
        Subject owner = subjects.findById(bearer.owner()).orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
        return switch (bearer) {
            case Bearer.OfSession delegated -> {
                if (owner.kind() != SubjectKind.PERSON || !owner.enabled() || !delegated.openAt(now)) {
                    throw Message.MCP_CREDENTIAL_NOT_ACCEPTED.refusal();
                }
                yield Agent.delegated(owner, delegated, delegated.session().endsAt(),
                        delegated.session().writesNeedApproval());
            }
            case Bearer.OfCredential credential -> {
                if (owner.kind() != SubjectKind.BOT || !owner.enabled()) {
                    throw Message.MCP_CREDENTIAL_NOT_ACCEPTED.refusal();
                }
                yield Agent.bot(owner, credential, writesNeedApproval.test(owner));
            }
        };
    }
}
