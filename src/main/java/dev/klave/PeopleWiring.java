package dev.klave;

import dev.klave.account.AccountLifecycle;
import dev.klave.account.AccountRoutes;
import dev.klave.account.AccountViews;
import dev.klave.account.Links;
import dev.klave.account.OwnAccount;
import dev.klave.account.SignedIn;
import dev.klave.config.Settings;
import dev.klave.store.Database;
import java.time.Clock;
import java.util.List;

/**
 * What people do with their accounts and administrators with everyone's: the views, offboarding
 * (which ends the person's credentials and agent sessions and asks every cluster to drop their
 * bindings), one's own account, links. Built on the areas whose state an account's end touches.
 */
final class PeopleWiring {
    final AccountViews views;
    final AccountLifecycle lifecycle;
    final OwnAccount own;
    final Links links;
    final SignedIn signedIn;

    PeopleWiring(Database database, Settings settings, AccountsWiring base, ClustersWiring clusters,
            BearersWiring bearers, AgentsWiring agents) {
        Clock clock = base.clock;
        views = new AccountViews(base.identities, base.sessionStore, base.linkTokens, base.lastAdmin,
                clusters.authority::countInForce,
                shown -> bearers.credentialStore.countActive(shown, clock.instant()), clock);
        lifecycle = new AccountLifecycle(database, base.subjects, base.identities, base.linkTokens, base.sessions,
                base.lastAdmin, base.events, List.of(bearers.credentials::revokeAllOf, agents.sessionEnds,
                        agents.accessRequests::onDisable),
                agents.sessionEnds, subject -> clusters.reconciliations.requestAll(), clock);
        own = new OwnAccount(database, base.subjects, base.sessions, base.hasher, base.throttle, base.events, base.mode,
                agents.sessionEnds, clock);
        links = new Links(database, base.linkTokens, base.subjects, base.sessions, base.hasher, base.events, base.mode,
                agents.sessionEnds, clock);
        signedIn = new SignedIn(own, views, settings.baseUrl().isHttps());
    }

    AccountRoutes routes(AccountsWiring base) {
        return new AccountRoutes(base.accounts, lifecycle, own, links, base.sessions, signedIn, views);
    }
}
