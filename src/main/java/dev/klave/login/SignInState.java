package dev.klave.login;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * What a sign-in started by Klave carries to its callback, in the signed state cookie: the
 * {@code state} the provider echoes back, why the sign-in was started, and what the callback must
 * check against (spec 1 §5 "Forge login checks", spec 2 §5 rule 1).
 *
 * @param linkTokenHash for {@link Purpose#LINK}: the SHA-256 of the {@code kli_} link being used
 * @param sessionHash for {@link Purpose#LINK_OWN}: the session that started, which must be the
 *     one that comes back
 * @param codeVerifier RFC 7636 PKCE verifier (OIDC)
 * @param nonce OpenID Connect Core §3.1.2.1 nonce (OIDC)
 * @param returnTo for {@link Purpose#LOGIN}: the page of Klave's to land on once signed in (the
 *     consent page, spec 3 §4 "Agent login"), already checked by {@link ReturnPath}
 */
public record SignInState(String state, Purpose purpose, Optional<String> linkTokenHash, Optional<String> sessionHash,
        Optional<String> codeVerifier, Optional<String> nonce, Instant expiresAt, Optional<String> returnTo) {
    public SignInState {
        requireNonNull(state, "state is null");
        requireNonNull(purpose, "purpose is null");
        requireNonNull(linkTokenHash, "linkTokenHash is null");
        requireNonNull(sessionHash, "sessionHash is null");
        requireNonNull(codeVerifier, "codeVerifier is null");
        requireNonNull(nonce, "nonce is null");
        requireNonNull(expiresAt, "expiresAt is null");
        // A cookie written before return paths existed has no field; it lands on the default page.
        returnTo = returnTo == null ? Optional.empty() : returnTo.flatMap(ReturnPath::of).map(ReturnPath::path);
        if (purpose == Purpose.LINK && linkTokenHash.isEmpty()) {
            throw new IllegalArgumentException("a linking sign-in names its link");
        }
        if (purpose == Purpose.LINK_OWN && sessionHash.isEmpty()) {
            throw new IllegalArgumentException("linking one's own account names the session that started it");
        }
    }

    /** A state that returns nowhere in particular. */
    public SignInState(String state, Purpose purpose, Optional<String> linkTokenHash, Optional<String> sessionHash,
            Optional<String> codeVerifier, Optional<String> nonce, Instant expiresAt) {
        this(state, purpose, linkTokenHash, sessionHash, codeVerifier, nonce, expiresAt, Optional.empty());
    }

    /** This state with the provider's own secrets (OIDC: PKCE verifier and nonce). */
    public SignInState withSecrets(Optional<String> verifier, Optional<String> nonceValue) {
        return new SignInState(state, purpose, linkTokenHash, sessionHash, verifier, nonceValue, expiresAt, returnTo);
    }

    /** Why the sign-in was started. */
    public enum Purpose {
        /** Signing in with an identity already linked. */
        LOGIN,
        /** Completing an invitation or linking link ({@code POST /api/auth/forge/link}). */
        LINK,
        /** Linking the signed-in person's own account from {@code /mi-cuenta}. */
        LINK_OWN
    }

    /** Where a failure of this sign-in sends the browser (spec 1 §7 "Forge login failure codes"). */
    public String failurePage() {
        return purpose == Purpose.LINK_OWN ? "/mi-cuenta" : "/login";
    }

    /** Where a successful plain sign-in lands: the page it started from, else {@code /}. */
    public String landingPage() {
        return purpose == Purpose.LOGIN ? returnTo.orElse("/") : "/";
    }
}
