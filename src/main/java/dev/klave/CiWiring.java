package dev.klave;

import dev.klave.ci.ActionsTokenVerifier;
import dev.klave.ci.CiExchange;
import dev.klave.ci.CiRoutes;
import dev.klave.ci.DiscoveryKeyFetcher;
import dev.klave.ci.IssuerKeys;
import dev.klave.ci.TrustRules;
import dev.klave.config.CiExchangeSettings;
import dev.klave.config.Settings;
import dev.klave.credential.CredentialRoutes;
import dev.klave.store.Database;
import dev.klave.store.JdbiExchangedTokenStore;
import dev.klave.store.JdbiRateWindowStore;
import dev.klave.store.JdbiTrustRuleStore;
import io.micrometer.core.instrument.MeterRegistry;
import javax.net.ssl.SSLContext;

/**
 * CI jobs exchanging their GitHub Actions tokens for bot credentials (spec 1 §4 "CI and forge"):
 * the issuer's keys, the trust rules administrators keep, the exchange. Starts nothing.
 */
final class CiWiring {
    final TrustRules trustRules;
    final CiExchange exchange;

    /** @param outboundTls what calls to the CI issuer (discovery, keys) trust */
    CiWiring(Database database, Settings settings, AccountsWiring base, BearersWiring bearers, SSLContext outboundTls,
            MeterRegistry registry) {
        CiExchangeSettings ci = settings.ci();
        IssuerKeys issuerKeys = new IssuerKeys(new DiscoveryKeyFetcher(ci.issuer(), outboundTls), base.clock);
        JdbiTrustRuleStore trustRuleStore = new JdbiTrustRuleStore(database);
        exchange = new CiExchange(
                new ActionsTokenVerifier(ci.issuer().toString(), settings.baseUrl().toString(), issuerKeys, base.clock),
                trustRuleStore, new JdbiExchangedTokenStore(database), base.subjects, bearers.credentials,
                new JdbiRateWindowStore(database), database, base.events, ci.credentialTtl(), settings.addressGroups(),
                base.clock, registry);
        trustRules = new TrustRules(database, trustRuleStore, base.subjects, base.events, base.clock);
    }

    CiRoutes routes(Settings settings, AccountsWiring base, CredentialRoutes credentials) {
        return new CiRoutes(trustRules, exchange, credentials, base.subjects, settings.baseUrl(),
                settings.ci().issuer().toString());
    }
}
