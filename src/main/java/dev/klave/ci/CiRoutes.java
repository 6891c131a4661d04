package dev.klave.ci;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectStore;
import dev.klave.config.BaseUrl;
import dev.klave.credential.CredentialRoutes;
import dev.klave.credential.Ttl;
import dev.klave.http.Access;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.RouteProvider;
import java.time.Instant;
import java.util.List;

/**
 * {@code /api/ci/trust-rules} (admin) and the exchange itself at {@value CiExchange#ROUTE}, which
 * lives outside {@code /api}: anonymous, no cookies read, no origin check (spec 1 §4 "CI and forge").
 */
public final class CiRoutes implements RouteProvider {
    private final TrustRules rules;
    private final CiExchange exchange;
    private final CredentialRoutes credentialViews;
    private final SubjectStore subjects;
    private final BaseUrl baseUrl;
    private final String issuer;

    public CiRoutes(TrustRules rules, CiExchange exchange, CredentialRoutes credentialViews, SubjectStore subjects,
            BaseUrl baseUrl, String issuer) {
        this.rules = requireNonNull(rules, "rules is null");
        this.exchange = requireNonNull(exchange, "exchange is null");
        this.credentialViews = requireNonNull(credentialViews, "credentialViews is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
        this.issuer = requireNonNull(issuer, "issuer is null");
    }

    record RuleView(String id, String name, String botSubjectId, String botLogin, long repositoryOwnerId,
            long repositoryId, String ref, String environment, Instant createdAt) {}

    /** What a workflow needs besides the rule: whom to ask for a token, for whom, and where to send it. */
    record RulesView(List<RuleView> rules, String audience, String issuer, String tokenLifetime, String exchangeRoute,
            String exchangeUrl) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/ci/trust-rules", Access.ADMIN, request -> ApiResponse.ok(new RulesView(
                        rules.list().stream().map(this::view).toList(), baseUrl.toString(), issuer,
                        Ttl.format(exchange.credentialTtl()), CiExchange.ROUTE, baseUrl.resolve(CiExchange.ROUTE))))
                .post("/api/ci/trust-rules", Access.ADMIN, request -> ApiResponse.created(view(
                        rules.create(request.json(TrustRules.Draft.class), Principal.of(request)))))
                .delete("/api/ci/trust-rules/{id}", Access.ADMIN, request -> {
                    rules.delete(request.pathParameter("id"), Principal.of(request));
                    return ApiResponse.noContent();
                })
                .post(CiExchange.ROUTE, Access.ANONYMOUS, request -> ApiResponse.created(
                        credentialViews.issuedView(exchange.exchange(request.body(), request.clientAddress()))));
    }

    private RuleView view(TrustRule rule) {
        String login = subjects.findById(rule.botSubjectId()).map(Subject::login).map(Object::toString).orElse("");
        return new RuleView(rule.id(), rule.name(), rule.botSubjectId().value(), login, rule.repositoryOwnerId(),
                rule.repositoryId(), rule.ref(), rule.environment(), rule.createdAt());
    }
}
