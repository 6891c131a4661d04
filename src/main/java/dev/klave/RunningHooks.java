package dev.klave;

import static java.util.Objects.requireNonNull;

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

/** The {@link TestHooks} of one running {@link Services}: each hook one area's object or beat, nothing built. */
final class RunningHooks implements TestHooks {
    private final Services.Areas areas;

    RunningHooks(Services.Areas areas) {
        this.areas = requireNonNull(areas, "areas is null");
    }

    @Override
    public void flushRecordings() throws InterruptedException {
        areas.recordings().recordings.flushNow();
    }

    @Override
    public int deliverNotifications() {
        return areas.notifications().deliverer.pass();
    }

    @Override
    public int sweepAccessRequests(int limit) {
        return areas.agents().sweep.sweep(limit);
    }

    @Override
    public ForgeSync.Run syncForgeMembers() {
        return areas.signIn().forgeSync.orElseThrow(() -> new IllegalStateException("the forge is not configured"))
                .runOnce();
    }

    @Override
    public OpenedSession openSession(Subject subject) {
        return areas.base().sessions.open(subject);
    }

    @Override
    public AccountLifecycle lifecycle() {
        return areas.people().lifecycle;
    }

    @Override
    public Optional<OidcProvider> oidcProvider() {
        return areas.signIn().oidcProvider();
    }

    @Override
    public Approvals approvals() {
        return areas.agents().approvals;
    }

    @Override
    public AccessRequests accessRequests() {
        return areas.agents().accessRequests;
    }

    @Override
    public AgentTokens agentTokens() {
        return areas.agents().agentTokens;
    }

    @Override
    public BearerResolver bearers() {
        return areas.bearers().bearers;
    }

    @Override
    public Gateway gateway() {
        return areas.gateway().gateway;
    }

    @Override
    public ClusterExchange clusterExchange() {
        return areas.gateway().clusterExchange;
    }

    @Override
    public dev.klave.gateway.CallChain chain() {
        return areas.gateway().chain;
    }

    @Override
    public OpenCalls openCalls() {
        return areas.gateway().openCalls;
    }

    @Override
    public AuditWriter auditWriter() {
        return areas.audit().writer;
    }
}
