package dev.klave.login.oidc;

import static dev.klave.login.SignInError.DOMAIN_NOT_ALLOWED;
import static dev.klave.login.SignInError.EMAIL_UNVERIFIED;
import static dev.klave.login.SignInError.NO_EMAIL;
import static dev.klave.login.SignInError.OIDC;
import static dev.klave.login.SignInError.PROVIDER_UNAVAILABLE;
import static dev.klave.login.SignInError.TOKEN;
import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.ClientSecretPost;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.Prompt;
import com.nimbusds.openid.connect.sdk.UserInfoRequest;
import com.nimbusds.openid.connect.sdk.UserInfoResponse;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.claims.UserInfo;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import dev.klave.account.EmailKey;
import dev.klave.account.ExternalIdentity;
import dev.klave.account.IdentityProvider;
import dev.klave.account.Subject;
import dev.klave.config.OidcSettings;
import dev.klave.login.SignInFailure;
import dev.klave.login.SignInMethod;
import dev.klave.login.SignInState;
import dev.klave.messages.Untrusted;
import java.net.URI;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Sign-in through an OpenID Connect provider (spec 2 §5 "Sign-in rules", in their order):
 * authorization code with PKCE (S256), state and nonce; the code exchanged by a public client with
 * its id and verifier only, by a confidential one with its secret too; the ID token verified —
 * RS256 only, a token without key id only while the provider publishes one signing key, issuer,
 * audience, {@code azp}, expiry and not-before with a minute's skew, nonce, the subject claim present; the e-mail
 * and its verification both from the ID token or, when it lacks either, both from userinfo about the
 * same {@code sub}; the verified claim
 * true; the domain allowed, with the hosted-domain rules. Provider tokens live only in this call.
 */
public final class OidcSignIn implements SignInMethod {
    /** Clocks a minute apart still agree on a token's times. */
    static final int CLOCK_SKEW_SECONDS = 60;
    private static final String GOOGLE = "https://accounts.google.com";

    private final OidcSettings settings;
    private final OidcProvider provider;
    private final URI callback;
    private final EmailLinking linking;

    public OidcSignIn(OidcSettings settings, OidcProvider provider, URI callback, EmailLinking linking) {
        this.settings = requireNonNull(settings, "settings is null");
        this.provider = requireNonNull(provider, "provider is null");
        this.callback = requireNonNull(callback, "callback is null");
        this.linking = requireNonNull(linking, "linking is null");
    }

    @Override
    public IdentityProvider provider() {
        return IdentityProvider.OIDC;
    }

    @Override
    public SignInState withExtras(SignInState state) {
        return state.withSecrets(Optional.of(new CodeVerifier().getValue()), Optional.of(new Nonce().getValue()));
    }

    @Override
    public URI authorizationUrl(SignInState state, boolean selectAccount) throws SignInFailure {
        OidcProvider.Known known = known(false);
        AuthenticationRequest.Builder request = new AuthenticationRequest.Builder(ResponseType.CODE,
                new Scope(settings.scopes().toArray(String[]::new)), new ClientID(settings.clientId()), callback)
                .endpointURI(known.metadata().getAuthorizationEndpointURI())
                .state(new State(state.state()))
                .nonce(new Nonce(state.nonce().orElseThrow()))
                .codeChallenge(new CodeVerifier(state.codeVerifier().orElseThrow()), CodeChallengeMethod.S256);
        if (selectAccount) {
            request.prompt(Prompt.Type.SELECT_ACCOUNT);
        }
        if (settings.allowedDomains().size() == 1) {
            // Spec 2 §5 rule 5: with one allowed domain, the hosted-domain hint.
            request.customParameter("hd", settings.allowedDomains().getFirst());
        }
        return request.build().toURI();
    }

    @Override
    public ProviderIdentity identify(String code, SignInState state) throws SignInFailure {
        OidcProvider.Known known = known(true);
        OIDCTokenResponse tokens = exchange(known, code, state);
        IDTokenClaimsSet claims = verify(known, tokens.getOIDCTokens().getIDToken(), state);
        String subject = subjectValue(claims);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("subject", subject);
        Optional<String> tokenEmail = Optional.ofNullable(claims.getStringClaim("email"));
        Optional<String> email = tokenEmail;
        Optional<Boolean> verified = verifiedIn(claims.getClaim(settings.verifiedClaim()));
        Optional<String> name = Optional.ofNullable(claims.getStringClaim("name"));
        if (email.isEmpty() || verified.isEmpty()) {
            // Spec 2 §5 rule 3: an ID token that lacks the e-mail or its verification gives neither;
            // both come from userinfo about the same sub. Never one from each source: a verification
            // vouches only for the address that came with it.
            Optional<UserInfo> info = userInfo(known, tokens.getOIDCTokens().getBearerAccessToken(), claims, details);
            email = info.map(UserInfo::getEmailAddress);
            verified = info.flatMap(found -> verifiedIn(found.getClaim(settings.verifiedClaim())));
            name = name.or(() -> info.map(UserInfo::getName));
        }
        if (email.isEmpty() || email.get().isBlank()) {
            if (tokenEmail.isPresent() && !tokenEmail.get().isBlank()) {
                // An address without a verification from the same source: nobody vouches for it.
                details.put("email", tokenEmail.get());
                throw SignInFailure.of(EMAIL_UNVERIFIED, "the ID token's e-mail comes without "
                        + settings.verifiedClaim() + " and userinfo gives no e-mail").with(details);
            }
            throw SignInFailure.of(NO_EMAIL, "neither the ID token nor userinfo carried an e-mail").with(details);
        }
        if (!EmailKey.usable(email.get())) {
            // Spec 2 §5 rule 7 trims spaces only: an address with a control character or other
            // whitespace is no usable e-mail, not one to clean up into someone else's.
            details.put("email", email.get());
            throw SignInFailure.of(NO_EMAIL, "the e-mail holds a control character or whitespace other than spaces")
                    .with(details);
        }
        details.put("email", email.get());
        if (!verified.orElse(false)) {
            throw SignInFailure.of(EMAIL_UNVERIFIED, "the provider does not vouch for the e-mail (" +
                    settings.verifiedClaim() + ")").with(details);
        }
        checkDomain(known, email.get(), claims, details);
        if (claims.getAMR() != null && !claims.getAMR().isEmpty()) {
            details.put("amr", claims.getAMR().stream().map(Object::toString).toList());
        }
        if (claims.getACR() != null) {
            details.put("acr", claims.getACR().getValue());
        }
        return new ProviderIdentity(ExternalIdentity.Key.oidc(settings.issuer().toString(), settings.subjectClaim(),
                subject), name, email, details);
    }

    @Override
    public void admit(ProviderIdentity identity, Subject subject) {
        // Spec 2 §1.4: two-factor is up to the provider; nothing more to check here.
    }

    @Override
    public FirstSignIn firstSignIn(ProviderIdentity identity) throws SignInFailure {
        return linking.firstSignIn(identity);
    }

    private OidcProvider.Known known(boolean recorded) throws SignInFailure {
        try {
            return provider.known();
        } catch (ProviderUnavailableException e) {
            // Spec 2 §6: a button click while discovery is unavailable writes no row.
            throw recorded ? SignInFailure.of(PROVIDER_UNAVAILABLE, e.getMessage())
                    : SignInFailure.logOnly(PROVIDER_UNAVAILABLE, e.getMessage());
        }
    }

    private OIDCTokenResponse exchange(OidcProvider.Known known, String code, SignInState state) throws SignInFailure {
        AuthorizationCodeGrant grant = new AuthorizationCodeGrant(new AuthorizationCode(code), callback,
                new CodeVerifier(state.codeVerifier().orElseThrow()));
        URI endpoint = known.metadata().getTokenEndpointURI();
        ClientID client = new ClientID(settings.clientId());
        TokenRequest request = settings.clientSecret()
                .map(secret -> {
                    com.nimbusds.oauth2.sdk.auth.Secret value = new com.nimbusds.oauth2.sdk.auth.Secret(secret.reveal());
                    List<ClientAuthenticationMethod> methods = known.metadata().getTokenEndpointAuthMethods();
                    boolean postOnly = methods != null && !methods.contains(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                            && methods.contains(ClientAuthenticationMethod.CLIENT_SECRET_POST);
                    return postOnly ? new TokenRequest(endpoint, new ClientSecretPost(client, value), grant)
                            : new TokenRequest(endpoint, new ClientSecretBasic(client, value), grant);
                })
                // A public client sends its id and the verifier only.
                .orElseGet(() -> new TokenRequest(endpoint, client, grant));
        HTTPResponse answer;
        try {
            answer = provider.http().send(request.toHTTPRequest(), "token endpoint");
        } catch (ProviderUnavailableException e) {
            throw SignInFailure.of(PROVIDER_UNAVAILABLE, e.getMessage());
        }
        if (answer.getStatusCode() >= 500) {
            throw SignInFailure.of(PROVIDER_UNAVAILABLE, "token endpoint: HTTP " + answer.getStatusCode());
        }
        TokenResponse response;
        try {
            response = OIDCTokenResponseParser.parse(answer);
        } catch (ParseException e) {
            throw SignInFailure.of(PROVIDER_UNAVAILABLE, "token endpoint: unreadable answer");
        }
        if (!response.indicatesSuccess()) {
            TokenErrorResponse error = response.toErrorResponse();
            String idpError = error.getErrorObject() == null || error.getErrorObject().getCode() == null ? "unknown"
                    : error.getErrorObject().getCode();
            throw SignInFailure.of(OIDC, "the provider refused the code: " + Untrusted.text(idpError))
                    .with(Map.of("idp_error", idpError));
        }
        return (OIDCTokenResponse) response.toSuccessResponse();
    }

    private IDTokenClaimsSet verify(OidcProvider.Known known, JWT idToken, SignInState state) throws SignInFailure {
        if (!(idToken instanceof SignedJWT signed) || !JWSAlgorithm.RS256.equals(signed.getHeader().getAlgorithm())) {
            throw SignInFailure.of(TOKEN, "the ID token is not signed with RS256 (" + Untrusted.text(
                    String.valueOf(idToken.getHeader().getAlgorithm())) + ")");
        }
        JWSHeader header = signed.getHeader();
        JWKSet keys = known.keys();
        if (header.getKeyID() == null && signingKeys(keys) != 1) {
            throw SignInFailure.of(TOKEN, "an ID token without key id while the provider publishes "
                    + signingKeys(keys) + " signing keys");
        }
        if (header.getKeyID() != null && keys.getKeyByKeyId(header.getKeyID()) == null) {
            try {
                keys = provider.refreshedKeys(known);
            } catch (ProviderUnavailableException e) {
                throw SignInFailure.of(PROVIDER_UNAVAILABLE, e.getMessage());
            }
        }
        IDTokenValidator validator = new IDTokenValidator(new Issuer(settings.issuer().toString()),
                new ClientID(settings.clientId()), JWSAlgorithm.RS256, keys);
        validator.setMaxClockSkew(CLOCK_SKEW_SECONDS);
        IDTokenClaimsSet claims;
        try {
            claims = validator.validate(idToken, new Nonce(state.nonce().orElseThrow()));
        } catch (BadJOSEException | JOSEException e) {
            throw SignInFailure.of(TOKEN, "the ID token failed verification: " + Untrusted.text(String.valueOf(e.getMessage())));
        }
        if (claims.getAuthorizedParty() != null && !settings.clientId().equals(claims.getAuthorizedParty().getValue())) {
            throw SignInFailure.of(TOKEN, "the ID token's azp is another client");
        }
        // RFC 7519 §4.1.5: not accepted before nbf. Nimbus's ID token checks skip nbf, so it is
        // checked here with the same skew as exp and iat (spec 2 §5 rule 2: "clock far off") — and
        // against the same clock as they are, the system's, so a token's times agree with each other.
        Date notBefore = claims.getDateClaim("nbf");
        if (notBefore != null && notBefore.toInstant().isAfter(Instant.now().plusSeconds(CLOCK_SKEW_SECONDS))) {
            throw SignInFailure.of(TOKEN, "the ID token is not valid before " + notBefore.toInstant());
        }
        return claims;
    }

    /** RSA keys the provider publishes for signatures (no {@code use}, or {@code sig}). */
    private static int signingKeys(JWKSet keys) {
        int count = 0;
        for (JWK key : keys.getKeys()) {
            if (key instanceof RSAKey && (key.getKeyUse() == null || KeyUse.SIGNATURE.equals(key.getKeyUse()))) {
                count++;
            }
        }
        return count;
    }

    private String subjectValue(IDTokenClaimsSet claims) throws SignInFailure {
        Object value = claims.getClaim(settings.subjectClaim());
        if (value instanceof String text && !text.isBlank()) {
            return text;
        }
        if (value instanceof Number number) {
            return number.toString();
        }
        throw SignInFailure.of(TOKEN, "the ID token lacks the subject claim " + settings.subjectClaim()
                + (settings.subjectClaim().equals(OidcSettings.TENANT_SUBJECT_CLAIM) ? " (is the profile scope asked?)"
                : ""));
    }

    private Optional<UserInfo> userInfo(OidcProvider.Known known, BearerAccessToken token, IDTokenClaimsSet claims,
            Map<String, Object> details) throws SignInFailure {
        URI endpoint = known.metadata().getUserInfoEndpointURI();
        if (endpoint == null || token == null) {
            return Optional.empty();
        }
        HTTPResponse answer;
        try {
            answer = provider.http().send(new UserInfoRequest(endpoint, token).toHTTPRequest(), "userinfo");
        } catch (ProviderUnavailableException e) {
            throw SignInFailure.of(PROVIDER_UNAVAILABLE, e.getMessage()).with(details);
        }
        if (answer.getStatusCode() >= 500) {
            throw SignInFailure.of(PROVIDER_UNAVAILABLE, "userinfo: HTTP " + answer.getStatusCode()).with(details);
        }
        UserInfo info;
        try {
            UserInfoResponse response = UserInfoResponse.parse(answer);
            if (!response.indicatesSuccess()) {
                return Optional.empty();
            }
            info = response.toSuccessResponse().getUserInfo();
        } catch (ParseException e) {
            throw SignInFailure.of(PROVIDER_UNAVAILABLE, "userinfo: unreadable answer").with(details);
        }
        if (info == null) {
            return Optional.empty();
        }
        if (!claims.getSubject().equals(info.getSubject())) {
            throw SignInFailure.of(TOKEN, "userinfo answered about another sub").with(details);
        }
        return Optional.of(info);
    }

    /** The verified claim as a boolean: {@code true}, or the text {@code "true"} some providers send. */
    private static Optional<Boolean> verifiedIn(Object value) {
        if (value instanceof Boolean flag) {
            return Optional.of(flag);
        }
        if (value instanceof String text) {
            return Optional.of(text.equalsIgnoreCase("true"));
        }
        return Optional.empty();
    }

    /**
     * Spec 2 §5 rule 5: the address's domain exactly one of the allowed ones; with a hosted-domain
     * provider, the {@code hd} claim present, allowed and equal to the address's domain.
     */
    private void checkDomain(OidcProvider.Known known, String email, IDTokenClaimsSet claims,
            Map<String, Object> details) throws SignInFailure {
        int at = email.lastIndexOf('@');
        // Spec 2 §8: case folding is A to Z only, for domains as for whole addresses (no Kelvin
        // sign or dotless i meets a look-alike).
        String domain = at < 0 ? "" : EmailKey.of(email.substring(at + 1)).orElse("");
        if (!settings.allowedDomains().contains(domain)) {
            throw SignInFailure.of(DOMAIN_NOT_ALLOWED, "the domain " + Untrusted.text(domain) + " is not allowed")
                    .with(details);
        }
        List<String> published = known.metadata().getClaims();
        boolean hostedDomain = settings.issuer().toString().equals(GOOGLE)
                || (published != null && published.contains("hd"));
        if (hostedDomain) {
            String hd = claims.getStringClaim("hd");
            Optional<String> hostedIn = hd == null ? Optional.empty() : EmailKey.of(hd);
            if (hostedIn.isEmpty() || !settings.allowedDomains().contains(hostedIn.get())
                    || !hostedIn.get().equals(domain)) {
                throw SignInFailure.of(DOMAIN_NOT_ALLOWED, hd == null ? "no hd claim: a personal account"
                        : "the hd claim " + Untrusted.text(hd) + " does not match the address's domain").with(details);
            }
        }
    }
}
