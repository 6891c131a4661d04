package dev.klave.oauth;

import static java.util.Objects.requireNonNull;

import dev.klave.config.BaseUrl;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.limits.PerAddressLimit;
import dev.klave.messages.Message;
import dev.klave.oauth.session.AgentTokens;
import dev.klave.oauth.session.IssuedTokens;
import dev.klave.oauth.session.OAuthRefusal;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code POST /oauth/token} and {@code POST /oauth/revoke} (spec 3 §4 "Agent login"; OAuth 2.1
 * §3.2, RFC 6749 §5, RFC 7009, RFC 8707): form-encoded, public clients (no client
 * authentication, the {@code client_id} must be the session's), 120 requests a minute per address.
 * Refusals are the OAuth shape the edge writes for these routes.
 */
final class TokenEndpoint {
    private final AgentTokens tokens;
    private final PerAddressLimit perAddress;
    private final String resource;
    private final Clock clock;

    TokenEndpoint(AgentTokens tokens, PerAddressLimit perAddress, BaseUrl baseUrl, Clock clock) {
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.perAddress = requireNonNull(perAddress, "perAddress is null");
        this.resource = baseUrl.resolve("/mcp");
        this.clock = requireNonNull(clock, "clock is null");
    }

    ApiResponse token(ApiRequest request) {
        perAddress.count(request.clientAddress());
        String grantType = single(request, "grant_type").orElseThrow(() -> invalid("grant_type"));
        String clientId = single(request, "client_id").orElseThrow(() -> invalid("client_id"));
        IssuedTokens issued;
        try {
            issued = switch (grantType) {
                case "authorization_code" -> {
                    // Spec 3 §4: resource is sent with the code, and is this server's /mcp (RFC 8707).
                    String target = single(request, "resource").orElseThrow(() -> invalid("resource"));
                    requireResource(target);
                    yield tokens.exchange(single(request, "code").orElseThrow(() -> invalid("code")),
                            single(request, "code_verifier").orElse(null),
                            single(request, "redirect_uri").orElseThrow(() -> invalid("redirect_uri")), clientId);
                }
                case "refresh_token" -> {
                    single(request, "resource").ifPresent(this::requireResource);
                    yield tokens.refresh(single(request, "refresh_token").orElseThrow(() -> invalid("refresh_token")),
                            clientId);
                }
                default -> throw Message.OAUTH_UNSUPPORTED_GRANT.refusal();
            };
        } catch (OAuthRefusal refusal) {
            throw Message.OAUTH_INVALID_GRANT.refusal(refusal.getMessage());
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("access_token", issued.accessToken());
        answer.put("token_type", "Bearer");
        answer.put("expires_in", Math.max(0, Duration.between(clock.instant(), issued.accessExpiresAt()).toSeconds()));
        answer.put("refresh_token", issued.refreshToken());
        // RFC 6749 §5.1: the answer carries tokens, so no cache may keep it (the API's no-store).
        return ApiResponse.ok(answer).withHeader("Pragma", "no-cache");
    }

    /** RFC 7009 §2.2: 200 whatever the token was; any token of a session ends the session. */
    ApiResponse revoke(ApiRequest request) {
        perAddress.count(request.clientAddress());
        tokens.revoke(single(request, "token").orElseThrow(() -> invalid("token")));
        return ApiResponse.ok(Map.of());
    }

    private void requireResource(String target) {
        if (!target.equals(resource)) {
            throw Message.OAUTH_INVALID_TARGET.refusal(resource);
        }
    }

    /** RFC 6749 §3.2: a parameter given twice is a malformed request. */
    private static Optional<String> single(ApiRequest request, String name) {
        List<String> values = request.formFields(name);
        if (values.size() > 1) {
            throw invalid(name + " repetido");
        }
        return values.isEmpty() || values.get(0).isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    private static RuntimeException invalid(String what) {
        return Message.OAUTH_INVALID_REQUEST.refusal(what);
    }
}
