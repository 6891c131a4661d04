package dev.klave.login;

import static dev.klave.login.SignInError.DENIED;
import static dev.klave.login.SignInError.RATE_LIMITED;
import static dev.klave.login.SignInError.SERVER;
import static dev.klave.login.SignInError.STATE;
import static java.util.Objects.requireNonNull;

import dev.klave.account.LoginThrottle;
import dev.klave.account.Principal;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.config.BaseUrl;
import dev.klave.crypto.SecretToken;
import dev.klave.http.ApiResponse;
import dev.klave.http.Caller;
import dev.klave.messages.Refusal;
import dev.klave.messages.Untrusted;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sign-in every external provider shares (spec 1 §5 "Forge login checks" and "Linking";
 * spec 2 §5): the state cookie, the callback's checks, the provider's answer, then one of three
 * flows — sign in ({@link ProviderLogin}), complete an invitation or linking link
 * ({@link InvitationLink}), link one's own account ({@link OwnLink}) — and one way out: a redirect to {@code /} (or the page a sign-in started from,
 * a checked {@link ReturnPath}; or {@code /mi-cuenta?forge=linked}), or to the failure page with
 * {@code ?error=<code>}. The state cookie is cleared on every answer, and
 * its state is recorded as used in the database before the provider is asked anything, so a
 * replayed callback fails with {@code state} on any replica.
 */
public final class ExternalSignIn {
    private static final Logger LOG = LoggerFactory.getLogger(ExternalSignIn.class);

    /** Which {@code Host} a provider's redirect back may come to. */
    public enum CallbackHost {
        /** Any: the forge App's callback is registered at the forge, which sends it only there. */
        ANY,
        /**
         * Only the base URL's (spec 2 §7 {@code state}): an OIDC client registered for several
         * addresses must not complete a sign-in started at another.
         */
        BASE_URL
    }

    private final SignInMethod method;
    private final StateCookie cookie;
    private final SignInParts parts;
    private final SignInPages pages;
    private final Optional<String> expectedHost;
    private final ProviderLogin login;
    private final InvitationLink invitation;
    private final OwnLink own;

    public ExternalSignIn(SignInMethod method, StateCookie cookie, SignInParts parts, BaseUrl baseUrl,
            CallbackHost host) {
        this.method = requireNonNull(method, "method is null");
        this.cookie = requireNonNull(cookie, "cookie is null");
        this.parts = requireNonNull(parts, "parts is null");
        this.pages = new SignInPages(baseUrl);
        this.expectedHost = switch (requireNonNull(host, "host is null")) {
            case ANY -> Optional.empty();
            case BASE_URL -> Optional.of(baseUrl.hostAndPort());
        };
        Linking linking = new Linking(method, parts);
        this.login = new ProviderLogin(linking, parts, pages);
        this.invitation = new InvitationLink(linking, parts, pages);
        this.own = new OwnLink(linking, parts, pages);
    }

    /** Where the browser goes next, and the {@code Set-Cookie} values to send with it. */
    public record Step(URI location, List<String> cookies) {
        public Step {
            requireNonNull(location, "location is null");
            cookies = List.copyOf(cookies);
        }

        /** The step as a 302 (the login route, the callback). */
        public ApiResponse redirect() {
            return withCookies(ApiResponse.redirect(location.toString()));
        }

        /** The step as {@code {url}} for a page that navigates itself (the link routes). */
        public ApiResponse url() {
            return withCookies(ApiResponse.ok(Map.of("url", location.toString())));
        }

        private ApiResponse withCookies(ApiResponse response) {
            for (String cookie : cookies) {
                response = response.withCookie(cookie);
            }
            return response;
        }
    }

    /** A plain sign-in: the state cookie is set and the browser goes to the provider. */
    public Step start() {
        return start(false);
    }

    /** @param selectAccount ask the provider for its account picker ("Probar con otra cuenta") */
    public Step start(boolean selectAccount) {
        return start(selectAccount, Optional.empty());
    }

    /**
     * @param returnTo the page to land on once signed in (the consent page of spec 3 §4 "Agent
     *     login"); it travels in the signed state cookie, so nobody can change it on the way
     */
    public Step start(boolean selectAccount, Optional<ReturnPath> returnTo) {
        return begin(SignInState.Purpose.LOGIN, Optional.empty(), Optional.empty(), selectAccount,
                returnTo.map(ReturnPath::path));
    }

    /**
     * Starts completing an invitation or linking link through the provider.
     *
     * @throws Refusal 404 {@code enlace no válido} for a token that never existed, 410 when it was
     *     spent, revoked or has expired, or its account is disabled
     */
    public Step startLink(String tokenText) {
        return begin(SignInState.Purpose.LINK, Optional.of(invitation.usable(tokenText)), Optional.empty(), false,
                Optional.empty());
    }

    /**
     * Starts linking the caller's own account.
     *
     * @throws Refusal 409 when the account already has an identity at this provider
     */
    public Step startOwnLink(Principal caller) {
        own.refuseLinked(caller);
        return begin(SignInState.Purpose.LINK_OWN, Optional.empty(), Optional.of(caller.sessionIdHash()), false,
                Optional.empty());
    }

    /**
     * The state cookie and the provider's page; when the provider cannot be reached, at once the
     * failure page instead (spec 2 §5 "Discovery": {@code provider_unavailable}, no event).
     */
    private Step begin(SignInState.Purpose purpose, Optional<String> linkTokenHash, Optional<String> sessionHash,
            boolean selectAccount, Optional<String> returnTo) {
        SignInState state = method.withExtras(new SignInState(parts.random().randomId(), purpose, linkTokenHash, sessionHash,
                Optional.empty(), Optional.empty(), cookie.expiry(), returnTo));
        try {
            return new Step(method.authorizationUrl(state, selectAccount), List.of(cookie.set(state)));
        } catch (SignInFailure failure) {
            LOG.warn("{} sign-in could not start ({}): {}", method.provider().code(), failure.code(),
                    Untrusted.text(failure.getMessage()));
            return new Step(pages.failure(state.failurePage(), failure.error(), state.returnTo()), List.of());
        }
    }

    /**
     * What the provider's redirect back carried, and from where.
     *
     * @param host the request's {@code Host}, checked against the base URL's when the flow was
     *     built with one (spec 2 §7 {@code state})
     */
    public record Callback(Optional<String> state, Optional<String> code, Optional<String> error,
            List<String> cookieHeaders, InetAddress client, Optional<String> host) {
        public Callback {
            requireNonNull(state, "state is null");
            requireNonNull(code, "code is null");
            requireNonNull(error, "error is null");
            cookieHeaders = List.copyOf(cookieHeaders);
            requireNonNull(client, "client is null");
            requireNonNull(host, "host is null");
        }
    }

    /** The callback: never throws; every outcome is a redirect. */
    public Step callback(Callback callback) {
        String failurePage = "/login";
        Optional<String> returnTo = Optional.empty();
        List<String> clear = List.of(cookie.clear());
        try {
            Optional<SignInState> valid = cookie.read(callback.cookieHeaders());
            if (expectedHost.isPresent() && !callback.host().map(host -> host.equalsIgnoreCase(expectedHost.get()))
                    .orElse(false)) {
                // Spec 2 §7 `state`: the host differs from the base URL's. Spec 2 §6: only a callback
                // without a valid state cookie leaves no row.
                String why = "the callback came to host " + Untrusted.text(callback.host().orElse("(none)"))
                        + ", not the base URL's " + expectedHost.get();
                throw valid.isPresent() ? SignInFailure.of(STATE, why) : SignInFailure.logOnly(STATE, why);
            }
            SignInState state = valid.orElseThrow(() -> SignInFailure.logOnly(STATE,
                    "no valid state cookie (missing, forged or older than 10 minutes)"));
            failurePage = state.failurePage();
            returnTo = state.returnTo();
            if (!sameSecret(callback.state().orElse(""), state.state())) {
                throw SignInFailure.of(STATE, "the state parameter does not match the cookie");
            }
            Optional<Caller.Session> starter = Optional.empty();
            if (state.purpose() == SignInState.Purpose.LINK_OWN) {
                starter = Optional.of(own.sameSession(callback.cookieHeaders(), state));
            }
            // Spec 2 §5 rule 1: a state serves one callback, whichever replica it comes back to —
            // not only because the provider refuses a code twice (some accept it again).
            if (!parts.usedStates().use(SecretToken.sha256(state.state()), parts.clock().instant(), state.expiresAt())) {
                throw SignInFailure.of(STATE, "this sign-in's state was used already: a replayed callback");
            }
            try {
                parts.throttle().countAttempt(callback.client());
            } catch (Refusal refusal) {
                throw SignInFailure.of(RATE_LIMITED, "over " + LoginThrottle.ATTEMPTS_PER_MINUTE
                        + " sign-in attempts this minute from " + callback.client().getHostAddress());
            }
            if (callback.error().isPresent()) {
                String error = callback.error().get();
                throw error.equals("access_denied")
                        ? SignInFailure.of(DENIED, "the person cancelled at the provider")
                        : SignInFailure.of(providerCode(), "the provider answered error=" + Untrusted.text(error))
                                .with(Map.of("idp_error", error));
            }
            String code = callback.code().filter(value -> !value.isEmpty())
                    .orElseThrow(() -> SignInFailure.of(providerCode(), "the redirect carries no code"));
            SignInMethod.ProviderIdentity identity = method.identify(code, state);
            Step done;
            try {
                done = switch (state.purpose()) {
                    case LOGIN -> login.signIn(identity, callback.client(), state.landingPage());
                    case LINK -> invitation.complete(identity, state.linkTokenHash().orElseThrow(), callback.client());
                    case LINK_OWN -> own.complete(identity, starter.orElseThrow(), callback.client());
                };
            } catch (SignInFailure failure) {
                // Spec 2 §6: the failure names the e-mail and provider subject when known.
                throw failure.with(Linking.identityDetails(identity));
            }
            return new Step(done.location(), concat(done.cookies(), clear));
        } catch (SignInFailure failure) {
            return failed(failure, failurePage, returnTo, callback.client(), clear);
        } catch (RuntimeException e) {
            LOG.error("{} sign-in failed: {}", method.provider().code(), Untrusted.text(String.valueOf(e.getMessage())),
                    e);
            return new Step(pages.failure(failurePage, SERVER, returnTo), clear);
        }
    }

    private Step failed(SignInFailure failure, String failurePage, Optional<String> returnTo, InetAddress client,
            List<String> clear) {
        parts.meters().failed(method.provider().via());
        LOG.info("{} sign-in failed ({}): {}", method.provider().code(), failure.code(),
                Untrusted.text(failure.getMessage()));
        if (failure.recorded()) {
            try {
                ControlEvents.Draft event = parts.events().event(EventType.LOGIN_FAILURE).via(method.provider().via())
                        .reason(failure.code())
                        .from(client).details(failure.details());
                failure.subject().ifPresent(event::target);
                event.record();
            } catch (RuntimeException e) {
                LOG.error("could not record the {} sign-in failure: {}", method.provider().code(),
                        Untrusted.text(String.valueOf(e)));
            }
        }
        return new Step(pages.failure(failurePage, failure.error(), returnTo), clear);
    }

    /** The code for "the provider did not answer as expected": {@code forge} or {@code oidc}'s own. */
    private SignInError providerCode() {
        return SignInError.providerFailed(method.provider());
    }

    private static boolean sameSecret(String given, String expected) {
        return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> concat(List<String> first, List<String> second) {
        return Stream.concat(first.stream(), second.stream()).toList();
    }
}
