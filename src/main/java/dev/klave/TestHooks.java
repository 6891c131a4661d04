package dev.klave;

import dev.klave.account.AccountLifecycle;
import dev.klave.account.OpenedSession;
import dev.klave.account.Subject;
import dev.klave.agent.approval.AccessRequests;
import dev.klave.agent.approval.Approvals;
import dev.klave.audit.AuditWriter;
import dev.klave.gateway.BearerResolver;
import dev.klave.gateway.ClusterExchange;
import dev.klave.gateway.Gateway;
import dev.klave.gateway.OpenCalls;
import dev.klave.login.forge.ForgeSync;
import dev.klave.login.oidc.OidcProvider;
import dev.klave.oauth.session.AgentTokens;
import java.util.Optional;

/**
 * What a test may reach inside a running {@link Klave} where nothing a person, an agent or the CLI
 * does would reach it (issue 52 §5) — the one list of such hooks; {@code Klave} implements it and
 * production code never calls it. Everything else a test needs goes through the HTTP API, or
 * through the database and settings as the CLI does ({@code klave user …} builds
 * {@link AccountsWiring} over them; the test kit's {@code TestingKlave} does the same).
 *
 * <p>Two kinds: background beats run now, so that a test asserts after one beat instead of waiting
 * for the next; and the in-process services that tests of the gateway, of agents' approvals and
 * of sign-in drive directly, because the state they set up has no way in from outside (an agent's
 * held write before anyone answered it, a session of a person whose provider is a simulator).
 */
public interface TestHooks {
    /** Writes what recorded sessions hold now (the writer does every second). */
    void flushRecordings() throws InterruptedException;

    /** One pass of the notifications' delivery (every 5 s otherwise, and when something is queued). */
    int deliverNotifications();

    /** One sweep of access requests run out or ended (every 30 s otherwise): how many it recorded. */
    int sweepAccessRequests(int limit);

    /** One run of the forge's member sync (hourly otherwise). */
    ForgeSync.Run syncForgeMembers();

    /** A session of {@code subject}, as if they had just signed in (a person of a simulated provider). */
    OpenedSession openSession(Subject subject);

    /** Disabling and offboarding, as the forge's sync and webhook do it. */
    AccountLifecycle lifecycle();

    /** The OIDC provider, when OIDC sign-in is on: its discovery's state. */
    Optional<OidcProvider> oidcProvider();

    /** Agents' held writes: held, waited for, claimed (spec 3 §4). */
    Approvals approvals();

    /** Access requests, asked as an agent or a person (spec 3 "request_access", issue 41). */
    AccessRequests accessRequests();

    /** Agent sessions' consent, codes and tokens (spec 3 §4 "Agent login"). */
    AgentTokens agentTokens();

    /** The one resolver of bearers: a test's token turned into the bearer an edge would resolve. */
    BearerResolver bearers();

    /** Admission of calls to clusters, shared by every way in. */
    Gateway gateway();

    /** Every call to a cluster as one chain; it knows the calls it handed over that have not ended. */
    dev.klave.gateway.CallChain chain();

    /** Calls to clusters for callers inside Klave, under the proxy's rules (spec 3's tools). */
    ClusterExchange clusterExchange();

    /** The calls this replica holds open, which the stream guard cuts. */
    OpenCalls openCalls();

    /** The group-commit audit writer. */
    AuditWriter auditWriter();
}
