package dev.klave.login;

import static dev.klave.login.SignInError.ALREADY_LINKED;
import static dev.klave.login.SignInError.DENIED;
import static dev.klave.login.SignInError.DISABLED;
import static dev.klave.login.SignInError.LINK_GONE;
import static dev.klave.login.SignInError.RATE_LIMITED;
import static dev.klave.login.SignInError.SERVER;
import static dev.klave.login.SignInError.STATE;
import static dev.klave.login.SignInError.UNKNOWN_ACCOUNT;
import static java.util.Objects.requireNonNull;

import dev.klave.account.EmailKey;
import dev.klave.account.ExternalIdentity;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.account.LinkToken;
import dev.klave.account.LinkTokenStore;
import dev.klave.account.LoginThrottle;
import dev.klave.account.OpenedSession;
import dev.klave.account.Principal;
import dev.klave.account.Sessions;
import dev.klave.account.Subject;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.audit.Via;
import dev.klave.crypto.SecretToken;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.crypto.TokenKind;
import dev.klave.http.ApiResponse;
import dev.klave.http.Caller;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Untrusted;
import dev.klave.storage.AlreadyExistsException;
import dev.klave.storage.Transactions;
import dev.klave.storage.UsedStateStore;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sign-in flow every external provider shares (spec 1 §5 "Forge login checks" and
 * "Linking"; spec 2 §5). Three ways in — sign in, complete an invitation or linking link, link
 * one's own account — and one way out: a redirect to {@code /} (or the page a sign-in started from,
 * a checked {@link ReturnPath}; or {@code /mi-cuenta?forge=linked}), or to the failure page with
 * {@code ?error=<code>}. The state cookie is cleared on every answer, and
 * its state is recorded as used in the database before the provider is asked anything, so a
 * replayed callback fails with {@code state} on any replica.
 */
public final class ExternalSignIn {
    private static final Logger LOG = LoggerFactory.getLogger(ExternalSignIn.class);
    /** The {@code reason} of {@code link.complete} when people link their own account from {@code /mi-cuenta}. */
    static final String LINKED_FROM_ACCOUNT_PAGE = "account_page";

    private final SignInMethod method;
    private final StateCookie cookie;
    private final Transactions transactions;
    private final SubjectStore subjects;
    private final ExternalIdentityStore identities;
    private final LinkTokenStore links;
    private final Sessions sessions;
    private final LoginThrottle throttle;
    private final UsedStateStore usedStates;
    private final ControlEvents events;
    private final SecretTokenGenerator random;
    private final boolean secureCookies;
    private final String basePath;
    private final Optional<String> expectedHost;
    private final Clock clock;
    private final SignInMeters meters;

    /**
     * @param basePath the path of {@code SERVICE_BASE_URL} ({@code ""} or {@code /klave}): the
     *     pages the browser is sent to live under it
     * @param expectedHost the base URL's {@code host[:port]} when callbacks must come to it (OIDC)
     */
    public ExternalSignIn(SignInMethod method, StateCookie cookie, Transactions transactions, SubjectStore subjects,
            ExternalIdentityStore identities, LinkTokenStore links, Sessions sessions, LoginThrottle throttle,
            UsedStateStore usedStates, ControlEvents events, SecretTokenGenerator random, boolean secureCookies,
            String basePath, Optional<String> expectedHost, Clock clock) {
        this(method, cookie, transactions, subjects, identities, links, sessions, throttle, usedStates, events, random,
                secureCookies, basePath, expectedHost, clock, SignInMeters.none());
    }

    /** @param meters where sign-ins are counted, by this method and result */
    public ExternalSignIn(SignInMethod method, StateCookie cookie, Transactions transactions, SubjectStore subjects,
            ExternalIdentityStore identities, LinkTokenStore links, Sessions sessions, LoginThrottle throttle,
            UsedStateStore usedStates, ControlEvents events, SecretTokenGenerator random, boolean secureCookies,
            String basePath, Optional<String> expectedHost, Clock clock, SignInMeters meters) {
        this.meters = requireNonNull(meters, "meters is null");
        this.basePath = requireNonNull(basePath, "basePath is null");
        this.expectedHost = requireNonNull(expectedHost, "expectedHost is null");
        this.method = requireNonNull(method, "method is null");
        this.cookie = requireNonNull(cookie, "cookie is null");
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.identities = requireNonNull(identities, "identities is null");
        this.links = requireNonNull(links, "links is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.throttle = requireNonNull(throttle, "throttle is null");
        this.usedStates = requireNonNull(usedStates, "usedStates is null");
        this.events = requireNonNull(events, "events is null");
        this.random = requireNonNull(random, "random is null");
        this.secureCookies = secureCookies;
        this.clock = requireNonNull(clock, "clock is null");
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
        SecretToken token = SecretToken.parse(TokenKind.LINK, tokenText == null ? "" : tokenText)
                .orElseThrow(Message.LINK_INVALID::refusal);
        LinkToken link = links.findByHash(token.hash()).orElseThrow(Message.LINK_INVALID::refusal);
        if (!link.usableAt(clock.instant()) || subjects.findById(link.subjectId()).filter(Subject::enabled).isEmpty()) {
            throw Message.LINK_GONE.refusal();
        }
        return begin(SignInState.Purpose.LINK, Optional.of(token.hash()), Optional.empty(), false, Optional.empty());
    }

    /**
     * Starts linking the caller's own account.
     *
     * @throws Refusal 409 when the account already has an identity at this provider
     */
    public Step startOwnLink(Principal caller) {
        if (identities.findFor(caller.subjectId(), method.provider()).isPresent()) {
            throw Message.IDENTITY_ALREADY_LINKED.refusal();
        }
        return begin(SignInState.Purpose.LINK_OWN, Optional.empty(), Optional.of(caller.sessionIdHash()), false,
                Optional.empty());
    }

    /**
     * The state cookie and the provider's page; when the provider cannot be reached, at once the
     * failure page instead (spec 2 §5 "Discovery": {@code provider_unavailable}, no event).
     */
    private Step begin(SignInState.Purpose purpose, Optional<String> linkTokenHash, Optional<String> sessionHash,
            boolean selectAccount, Optional<String> returnTo) {
        SignInState state = method.withExtras(new SignInState(random.randomId(), purpose, linkTokenHash, sessionHash,
                Optional.empty(), Optional.empty(), cookie.expiry(), returnTo));
        try {
            return new Step(method.authorizationUrl(state, selectAccount), List.of(cookie.set(state)));
        } catch (SignInFailure failure) {
            LOG.warn("{} sign-in could not start ({}): {}", method.provider().code(), failure.code(),
                    Untrusted.text(failure.getMessage()));
            return new Step(failureLocation(state.failurePage(), failure.error(), state.returnTo()), List.of());
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
                starter = Optional.of(sameSession(callback, state));
            }
            // Spec 2 §5 rule 1: a state serves one callback, whichever replica it comes back to —
            // not only because the provider refuses a code twice (some accept it again).
            if (!usedStates.use(SecretToken.sha256(state.state()), clock.instant(), state.expiresAt())) {
                throw SignInFailure.of(STATE, "this sign-in's state was used already: a replayed callback");
            }
            try {
                throttle.countAttempt(callback.client());
            } catch (Refusal refusal) {
                throw SignInFailure.of(RATE_LIMITED, "over " + LoginThrottle.ATTEMPTS_PER_MINUTE
                        + " sign-in attempts this minute from " + callback.client().getHostAddress());
            }
            if (callback.error().isPresent()) {
                String error = callback.error().get();
                throw error.equals("access_denied")
                        ? SignInFailure.of(DENIED, "the person cancelled at the provider")
                        : SignInFailure.of(providerCode(), "the provider answered error=" + Untrusted.text(error))
                                .with(java.util.Map.of("idp_error", error));
            }
            String code = callback.code().filter(value -> !value.isEmpty())
                    .orElseThrow(() -> SignInFailure.of(providerCode(), "the redirect carries no code"));
            SignInMethod.ProviderIdentity identity = method.identify(code, state);
            Step done;
            try {
                done = switch (state.purpose()) {
                    case LOGIN -> signIn(identity, callback.client(), state.landingPage());
                    case LINK -> completeLink(identity, state.linkTokenHash().orElseThrow(), callback.client());
                    case LINK_OWN -> linkOwn(identity, starter.orElseThrow(), callback.client());
                };
            } catch (SignInFailure failure) {
                // Spec 2 §6: the failure names the e-mail and provider subject when known.
                throw failure.with(identityDetails(identity));
            }
            return new Step(done.location(), concat(done.cookies(), clear));
        } catch (SignInFailure failure) {
            return failed(failure, failurePage, returnTo, callback.client(), clear);
        } catch (RuntimeException e) {
            LOG.error("{} sign-in failed: {}", method.provider().code(), Untrusted.text(String.valueOf(e.getMessage())),
                    e);
            return new Step(failureLocation(failurePage, SERVER, returnTo), clear);
        }
    }

    private Caller.Session sameSession(Callback callback, SignInState state) throws SignInFailure {
        Caller.Session session;
        try {
            session = sessions.authenticate(callback.cookieHeaders());
        } catch (Refusal refusal) {
            throw SignInFailure.logOnly(STATE, "linking from the account page, but no session came back");
        }
        if (!sameSecret(session.sessionIdHash(), state.sessionHash().orElseThrow())) {
            throw SignInFailure.logOnly(STATE, "linking from the account page, but another session came back");
        }
        return session;
    }

    private Step signIn(SignInMethod.ProviderIdentity identity, InetAddress client, String landing)
            throws SignInFailure {
        Optional<ExternalIdentity> found = identities.find(identity.key());
        if (found.isEmpty()) {
            return firstSignIn(identity, client, landing);
        }
        ExternalIdentity linked = found.get();
        Subject subject = subjects.findById(linked.subjectId()).orElseThrow(() -> SignInFailure.of(UNKNOWN_ACCOUNT,
                describe(identity) + " is linked to an account that does not exist"));
        if (!subject.enabled()) {
            throw SignInFailure.of(DISABLED, subject, "the account is disabled");
        }
        method.admit(identity, subject);
        OpenedSession opened = inTransaction(() -> {
            // Unlinked (or linked elsewhere) while the provider was being asked: not this account any more.
            boolean stillLinked = identities.find(identity.key())
                    .map(current -> current.subjectId().equals(subject.id())).orElse(false);
            Optional<Subject> current = subjects.findById(subject.id()).filter(Subject::enabled);
            if (!stillLinked || current.isEmpty()) {
                throw new Outcome(stillLinked ? SignInFailure.of(DISABLED, subject, "disabled during the sign-in")
                        : SignInFailure.of(UNKNOWN_ACCOUNT, subject, "unlinked during the sign-in"));
            }
            identities.refresh(subject.id(), identity.key(), identity.display().or(linked::display),
                    identity.email().or(linked::email));
            if (identity.email().isPresent() && linked.email().isPresent()
                    && !identity.email().get().equals(linked.email().get())) {
                // Spec 2 §5 rule 6: the provider changed the address; the account's own stays as it is.
                // Only OIDC identities carry an e-mail (the forge's never does: ForgeSignIn.identify).
                events.event(EventType.OIDC_EMAIL_CHANGED).target(current.get()).via(via())
                        .details(Map.of("from", linked.email().get(), "to", identity.email().get())).record();
            }
            return signedIn(current.get(), identity, client);
        });
        meters.succeeded(via());
        return new Step(page(landing), List.of(sessionCookie(opened)));
    }

    /** An identity linked to no account: linked by e-mail when the method finds one (spec 2 §5 rule 7). */
    private Step firstSignIn(SignInMethod.ProviderIdentity identity, InetAddress client, String landing)
            throws SignInFailure {
        SignInMethod.FirstSignIn first = method.firstSignIn(identity);
        Subject subject = first.subject();
        method.admit(identity, subject);
        OpenedSession opened = inTransaction(() -> {
            Optional<Subject> current = subjects.findById(subject.id()).filter(Subject::enabled);
            if (current.isEmpty()) {
                throw new Outcome(SignInFailure.of(DISABLED, subject, "disabled during the sign-in"));
            }
            Optional<ExternalIdentity> now = identities.findFor(subject.id(), method.provider());
            if (!now.map(ExternalIdentity::key).equals(first.replaced().map(ExternalIdentity::key))) {
                throw new Outcome(SignInFailure.of(UNKNOWN_ACCOUNT, subject, "the account was linked meanwhile"));
            }
            link(identity, subject);
            int revoked = links.revokePending(subject.id(), clock.instant());
            Subject named = current.get();
            if (identity.display().isPresent() && (named.displayName().isBlank()
                    || named.displayName().equals(named.login().value()))) {
                // Spec 2 §3: an account without a name takes the provider's.
                named = subjects.update(subject.id(), account -> account.withDisplayName(identity.display().get()));
            }
            Map<String, Object> details = new LinkedHashMap<>(identityDetails(identity));
            details.put("issuer", identity.key().issuer());
            details.put("claim", identity.key().claim());
            details.put("invites_revoked", revoked);
            first.replaced().ifPresent(old -> {
                if (!old.key().issuer().equals(identity.key().issuer())) {
                    details.put("replaced_issuer", old.key().issuer());
                }
                if (!old.key().claim().equals(identity.key().claim())) {
                    details.put("replaced_claim", old.key().claim());
                }
            });
            // Only OIDC links by e-mail: the forge's firstSignIn links nothing (SignInMethod.firstSignIn).
            events.event(EventType.OIDC_LINK).target(named).via(Via.EMAIL).details(details).from(client).record();
            return signedIn(named, identity, client);
        });
        meters.succeeded(via());
        return new Step(page(landing), List.of(sessionCookie(opened)));
    }

    /** Inside the sign-in's transaction: the session and {@code login.success} (with {@code amr}, {@code acr}). */
    private OpenedSession signedIn(Subject subject, SignInMethod.ProviderIdentity identity, InetAddress client) {
        OpenedSession session = sessions.open(subject);
        Map<String, Object> details = new LinkedHashMap<>();
        for (String key : List.of("amr", "acr")) {
            if (identity.details().containsKey(key)) {
                details.put(key, identity.details().get(key));
            }
        }
        events.event(EventType.LOGIN_SUCCESS).target(subject).via(via()).details(details).from(client).record();
        return session;
    }

    /** What a failure's event names of the person at the provider (spec 2 §6): e-mail and subject. */
    private static Map<String, Object> identityDetails(SignInMethod.ProviderIdentity identity) {
        Map<String, Object> details = new LinkedHashMap<>();
        identity.email().ifPresent(email -> details.put("email", email));
        if (identity.details().containsKey("subject")) {
            details.put("subject", identity.details().get("subject"));
        }
        return details;
    }

    private Step completeLink(SignInMethod.ProviderIdentity identity, String linkTokenHash, InetAddress client)
            throws SignInFailure {
        LinkToken link = links.findByHash(linkTokenHash)
                .filter(found -> found.usableAt(clock.instant()))
                .orElseThrow(() -> SignInFailure.of(LINK_GONE, "the link was spent, revoked or has expired"));
        Subject subject = subjects.findById(link.subjectId()).filter(Subject::enabled)
                .orElseThrow(() -> SignInFailure.of(LINK_GONE, "the link's account is disabled"));
        refuseTaken(identity, subject);
        method.admit(identity, subject);
        OpenedSession opened = inTransaction(() -> {
            if (!links.consume(link.id(), clock.instant())) {
                throw new Outcome(SignInFailure.of(LINK_GONE, subject, "the link was used meanwhile"));
            }
            link(identity, subject);
            // Spec 1 §3: using a linking link closes the person's sessions.
            sessions.closeAll(subject.id());
            OpenedSession session = sessions.open(subject);
            withEmailMismatch(events.event(EventType.LINK_COMPLETE).target(subject).via(via())
                    .reason(link.purpose().code()).from(client), identity, subject).record();
            return session;
        });
        return new Step(page("/"), List.of(sessionCookie(opened)));
    }

    private Step linkOwn(SignInMethod.ProviderIdentity identity, Caller.Session starter, InetAddress client)
            throws SignInFailure {
        Subject subject = subjects.findById(new dev.klave.account.SubjectId(starter.subjectId()))
                .filter(Subject::enabled)
                .orElseThrow(() -> SignInFailure.logOnly(STATE, "the session's account is gone"));
        Optional<ExternalIdentity> existing = identities.findFor(subject.id(), method.provider());
        if (existing.isPresent() && !existing.get().key().equals(identity.key())) {
            throw SignInFailure.of(ALREADY_LINKED, subject, "the account is linked to another identity already");
        }
        refuseTaken(identity, subject);
        method.admit(identity, subject);
        inTransaction(() -> {
            // Again inside the transaction: a link completed meanwhile is not silently replaced.
            Optional<ExternalIdentity> now = identities.findFor(subject.id(), method.provider());
            if (now.isPresent() && !now.get().key().equals(identity.key())) {
                throw new Outcome(SignInFailure.of(ALREADY_LINKED, subject, "linked to another identity meanwhile"));
            }
            if (subjects.findById(subject.id()).filter(Subject::enabled).isEmpty()) {
                throw new Outcome(SignInFailure.of(DISABLED, subject, "disabled during the linking"));
            }
            link(identity, subject);
            withEmailMismatch(events.event(EventType.LINK_COMPLETE).actor(subject).target(subject).via(via())
                    .reason(LINKED_FROM_ACCOUNT_PAGE).from(client), identity, subject).record();
            return null;
        });
        return new Step(page("/mi-cuenta?" + method.provider().code() + "=linked"), List.of());
    }

    /**
     * Spec 2 §6: {@code link.complete} says whether the provider's address differs from the
     * account's (compared as e-mail keys); providers that give no address (the forge) say nothing.
     */
    private static ControlEvents.Draft withEmailMismatch(ControlEvents.Draft event,
            SignInMethod.ProviderIdentity identity, Subject subject) {
        identity.email().ifPresent(email -> event.detail("email_mismatch", EmailKey.of(email).isEmpty()
                || !subject.email().flatMap(EmailKey::of).equals(EmailKey.of(email))));
        return event;
    }

    private void refuseTaken(SignInMethod.ProviderIdentity identity, Subject subject) throws SignInFailure {
        Optional<ExternalIdentity> holder = identities.find(identity.key());
        if (holder.isPresent() && !holder.get().subjectId().equals(subject.id())) {
            throw SignInFailure.of(method.takenCode(), subject, describe(identity) + " is linked to another account");
        }
    }

    /** Inside a transaction; a concurrent link of the same identity elsewhere loses here. */
    private void link(SignInMethod.ProviderIdentity identity, Subject subject) {
        if (subject.kind() != SubjectKind.PERSON) {
            throw new IllegalStateException("bots are never linked");
        }
        Optional<ExternalIdentity> holder = identities.find(identity.key());
        if (holder.isPresent() && !holder.get().subjectId().equals(subject.id())) {
            throw new Outcome(SignInFailure.of(method.takenCode(), subject, describe(identity) + " was linked meanwhile"));
        }
        try {
            identities.link(new ExternalIdentity(subject.id(), identity.key(), identity.display(), identity.email(),
                    clock.instant()));
        } catch (AlreadyExistsException e) {
            throw new Outcome(SignInFailure.of(method.takenCode(), subject, describe(identity) + " was linked meanwhile"));
        }
    }

    private Step failed(SignInFailure failure, String failurePage, Optional<String> returnTo, InetAddress client,
            List<String> clear) {
        meters.failed(via());
        LOG.info("{} sign-in failed ({}): {}", method.provider().code(), failure.code(),
                Untrusted.text(failure.getMessage()));
        if (failure.recorded()) {
            try {
                ControlEvents.Draft event = events.event(EventType.LOGIN_FAILURE).via(via()).reason(failure.code())
                        .from(client).details(failure.details());
                failure.subject().ifPresent(event::target);
                event.record();
            } catch (RuntimeException e) {
                LOG.error("could not record the {} sign-in failure: {}", method.provider().code(),
                        Untrusted.text(String.valueOf(e)));
            }
        }
        return new Step(failureLocation(failurePage, failure.error(), returnTo), clear);
    }

    private <T> T inTransaction(java.util.function.Supplier<T> work) throws SignInFailure {
        try {
            return transactions.inTransaction(work);
        } catch (Outcome outcome) {
            throw outcome.failure;
        }
    }

    /** Carries a {@link SignInFailure} out of a transaction, rolling it back. */
    private static final class Outcome extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient SignInFailure failure;

        Outcome(SignInFailure failure) {
            super(failure.code(), null, false, false);
            this.failure = failure;
        }
    }

    private String sessionCookie(OpenedSession session) {
        return dev.klave.account.SessionCookie.set(session.cookieValue(), session.lifetime(), secureCookies);
    }

    private Via via() {
        return method.provider().via();
    }

    /** The code for "the provider did not answer as expected": {@code forge} or {@code oidc}'s own. */
    private SignInError providerCode() {
        return SignInError.providerFailed(method.provider());
    }

    private static String describe(SignInMethod.ProviderIdentity identity) {
        return "the " + identity.key().provider().code() + " identity " + Untrusted.text(identity.key().value())
                + identity.display().map(name -> " (" + Untrusted.text(name) + ")").orElse("");
    }

    /** The failure page; the login page keeps the return path, so trying again still lands there. */
    private URI failureLocation(String page, SignInError error, Optional<String> returnTo) {
        String next = page.equals("/login") ? returnTo.map(path -> "&next=" + URLEncoder.encode(path,
                StandardCharsets.UTF_8)).orElse("") : "";
        return page(page + "?error=" + URLEncoder.encode(error.code(), StandardCharsets.UTF_8) + next);
    }

    /** A page of the web interface, under the base URL's path when it has one. */
    private URI page(String path) {
        return URI.create(basePath + path);
    }

    private static boolean sameSecret(String given, String expected) {
        return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> concat(List<String> first, List<String> second) {
        return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
    }
}
