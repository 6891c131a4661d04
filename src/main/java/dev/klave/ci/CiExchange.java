package dev.klave.ci;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.account.Subject;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.audit.Via;
import dev.klave.credential.Credentials;
import dev.klave.credential.IssuedCredential;
import dev.klave.http.Json;
import dev.klave.config.AddressGroups;
import dev.klave.limits.PerAddressLimit;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Text;
import dev.klave.messages.Untrusted;
import dev.klave.storage.RateWindowStore;
import dev.klave.storage.Transactions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/ci/forge-actions/token}: an Actions ID token in, a bot credential out, in the
 * order of spec 1 §4 "CI exchange rules" — verify (401), match a trust rule (403), check the bot
 * (403), then spend the token and issue the credential in one transaction. Nothing before that
 * transaction writes, so a refused token stays usable (rule 5).
 */
public final class CiExchange {
    /** Spec 1 §8: 60 exchanges per minute from one address. */
    public static final int REQUESTS_PER_MINUTE = 60;
    public static final String CREDENTIAL_NAME = "forge-actions";
    public static final String ROUTE = "/v1/ci/forge-actions/token";

    private static final Logger LOG = LoggerFactory.getLogger(CiExchange.class);

    private final ActionsTokenVerifier verifier;
    private final TrustRuleStore rules;
    private final ExchangedTokenStore exchanged;
    private final SubjectStore subjects;
    private final Credentials credentials;
    private final PerAddressLimit perAddress;
    private final Transactions transactions;
    private final ControlEvents events;
    private final Duration credentialTtl;
    private final Clock clock;
    private final Counter issuedCount;
    private final Counter refusedCount;

    public CiExchange(ActionsTokenVerifier verifier, TrustRuleStore rules, ExchangedTokenStore exchanged,
            SubjectStore subjects, Credentials credentials, RateWindowStore windows, Transactions transactions,
            ControlEvents events, Duration credentialTtl, AddressGroups groups, Clock clock, MeterRegistry registry) {
        this.verifier = requireNonNull(verifier, "verifier is null");
        this.rules = requireNonNull(rules, "rules is null");
        this.exchanged = requireNonNull(exchanged, "exchanged is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.credentials = requireNonNull(credentials, "credentials is null");
        this.perAddress = new PerAddressLimit(windows, "ci-ip:", REQUESTS_PER_MINUTE, groups, clock);
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.events = requireNonNull(events, "events is null");
        this.credentialTtl = requireNonNull(credentialTtl, "credentialTtl is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.issuedCount = exchangeCounter(registry, "success");
        this.refusedCount = exchangeCounter(registry, "failure");
    }

    private static Counter exchangeCounter(MeterRegistry registry, String result) {
        return Counter.builder("klave.ci.exchanges")
                .description("CI token exchanges (POST /v1/ci/forge-actions/token) by result: a credential issued, "
                        + "or refused")
                .tag("result", result)
                .register(registry);
    }

    public Duration credentialTtl() {
        return credentialTtl;
    }

    /** @param body the request body, {@code {"token": "<ID token>"}} */
    public IssuedCredential exchange(byte[] body, InetAddress client) {
        try {
            IssuedCredential issued = issue(body, client);
            issuedCount.increment();
            return issued;
        } catch (RuntimeException refused) {
            refusedCount.increment();
            throw refused;
        }
    }

    private IssuedCredential issue(byte[] body, InetAddress client) {
        perAddress.count(client);
        ActionsClaims claims = verify(tokenOf(body), client);
        if (exchanged.exchanged(claims.jti())) {
            throw invalid("jti " + claims.jti() + " was already exchanged", client);
        }
        Subject bot = allowedBot(claims, client);
        Instant forgetAfter = claims.expiresAt().plus(ActionsTokenVerifier.CLOCK_SKEW);
        IssuedCredential issued;
        try {
            issued = transactions.inTransaction(() -> {
                if (!exchanged.spend(claims.jti(), clock.instant(), forgetAfter)) {
                    throw new SpentMeanwhile();
                }
                return credentials.issueForBot(bot, credentialTtl, CREDENTIAL_NAME, claims.credentialNote(),
                        Via.FORGE_ACTIONS);
            });
        } catch (SpentMeanwhile e) {
            throw invalid("jti " + claims.jti() + " was exchanged by a concurrent request", client);
        }
        LOG.info("CI exchange: {} → credential {} of bot {} for {}", Untrusted.text(claims.credentialNote()),
                issued.credential().id(),
                bot.login(), credentialTtl);
        return issued;
    }

    /**
     * The token of a body that is a JSON object with at most a {@code token} string; anything else
     * is a malformed request (400). A missing token is left for the verification to refuse.
     */
    private static Optional<String> tokenOf(byte[] body) {
        ObjectNode object = Json.readObject(body);
        Json.refuseUnknownFields(object, Set.of("token"));
        JsonNode token = object.get("token");
        if (token == null || token.isNull()) {
            return Optional.empty();
        }
        if (!token.isTextual()) {
            throw Message.INVALID_JSON.refusal();
        }
        return Optional.of(token.textValue());
    }

    private ActionsClaims verify(Optional<String> token, InetAddress client) {
        if (token.isEmpty() || token.get().isBlank()) {
            throw invalid("no token in the body", client);
        }
        try {
            return verifier.verify(token.get().strip());
        } catch (ActionsTokenVerifier.InvalidTokenException e) {
            throw invalid(e.getMessage(), client);
        } catch (IssuerKeys.KeysUnavailableException e) {
            LOG.error("CI exchange refused: {}", Untrusted.text(e.getMessage()));
            failure(e.getMessage(), client);
            throw Message.CI_NOT_CONFIGURED.refusal();
        }
    }

    /**
     * The bot of the first matching rule that is enabled and holds an active grant; otherwise the
     * refusal of the first matching rule, so the message names what to fix.
     */
    private Subject allowedBot(ActionsClaims claims, InetAddress client) {
        List<TrustRule> matching = rules.list().stream().filter(rule -> rule.matches(claims)).toList();
        if (matching.isEmpty()) {
            throw refused(Message.CI_NO_MATCHING_RULE.refusal(claims.repositoryOwnerId(), claims.repositoryId(),
                    claims.ref(), claims.environment(), Text.CI_HINT_NO_RULE.text()), client);
        }
        Optional<Refusal> first = Optional.empty();
        for (TrustRule rule : matching) {
            Optional<Subject> bot = subjects.findById(rule.botSubjectId());
            String login = bot.map(subject -> subject.login().value()).orElse(rule.botSubjectId().value());
            Refusal refusal;
            if (bot.isEmpty() || !bot.get().enabled()) {
                refusal = Message.CI_BOT_DISABLED.refusal(login, rule.name());
            } else if (credentials.reachableNow(bot.get().id()).isEmpty()) {
                refusal = Message.CI_BOT_WITHOUT_GRANTS.refusal(login, Text.CI_HINT_NO_GRANT.text());
            } else {
                return bot.get();
            }
            first = first.or(() -> Optional.of(refusal));
        }
        throw refused(first.orElseThrow(), client);
    }

    private Refusal invalid(String reason, InetAddress client) {
        // The reason quotes the token's claims, which anyone may forge: escaped and cut.
        LOG.warn("CI exchange refused (401): {}", Untrusted.text(reason, 500));
        failure(reason, client);
        return Message.CI_TOKEN_INVALID.refusal();
    }

    private Refusal refused(Refusal refusal, InetAddress client) {
        LOG.warn("CI exchange refused ({}): {}", refusal.status(), Untrusted.text(refusal.getMessage(), 500));
        failure(refusal.getMessage(), client);
        return refusal;
    }

    private void failure(String reason, InetAddress client) {
        events.event(EventType.CI_EXCHANGE_FAILURE).reason(reason).from(client).record();
    }

    /** Another exchange of the same token won the race; reported as a reuse once rolled back. */
    private static final class SpentMeanwhile extends RuntimeException {
        SpentMeanwhile() {
            super("jti spent by a concurrent exchange", null, false, false);
        }
    }
}
