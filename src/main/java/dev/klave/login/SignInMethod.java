package dev.klave.login;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.IdentityProvider;
import dev.klave.account.Subject;
import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * One external sign-in provider (the forge App, an OIDC provider) behind the flow every provider
 * shares ({@link ExternalSignIn}): the state cookie, the rate limit, how the account is found or
 * linked, the session, the events and where the browser goes. A method knows only its provider.
 */
public interface SignInMethod {
    IdentityProvider provider();

    /** What goes in a new state besides the state itself: PKCE verifier and nonce for OIDC. */
    default SignInState withExtras(SignInState state) {
        return state;
    }

    /**
     * The provider's authorization page for this sign-in.
     *
     * @param selectAccount ask the provider for its account picker ("Probar con otra cuenta")
     * @throws SignInFailure when the provider cannot be reached (OIDC: {@code provider_unavailable})
     */
    URI authorizationUrl(SignInState state, boolean selectAccount) throws SignInFailure;

    /**
     * The provider's half of the callback, once the state has been checked: the code exchanged,
     * the person's identity read, their provider token discarded.
     *
     * @param code the {@code code} query parameter
     * @throws SignInFailure with the provider's failure code
     */
    ProviderIdentity identify(String code, SignInState state) throws SignInFailure;

    /**
     * The provider's rules once the account is known (forge: active organisation member, 2FA).
     *
     * @throws SignInFailure with the provider's failure code
     */
    void admit(ProviderIdentity identity, Subject subject) throws SignInFailure;

    /** The failure code when the identity already opens another account. */
    default SignInError takenCode() {
        return SignInError.taken(provider());
    }

    /**
     * A sign-in with an identity linked to no account: which account it links to, or why none
     * (spec 2 §5 rules 7 and 8). The forge links no account by itself: {@code unknown_account}.
     */
    default FirstSignIn firstSignIn(ProviderIdentity identity) throws SignInFailure {
        throw SignInFailure.of(SignInError.UNKNOWN_ACCOUNT, "the identity is linked to no account");
    }

    /**
     * The account a first sign-in links to, and the identity of this provider it replaces (one of
     * an earlier issuer or subject claim: spec 2 §3).
     */
    record FirstSignIn(Subject subject, Optional<ExternalIdentity> replaced) {
        public FirstSignIn {
            java.util.Objects.requireNonNull(subject, "subject is null");
            java.util.Objects.requireNonNull(replaced, "replaced is null");
        }
    }

    /**
     * Who the person is at the provider, as the callback established it.
     *
     * @param details what the events name besides: the e-mail and provider subject, {@code amr},
     *     {@code acr} (spec 2 §6)
     */
    record ProviderIdentity(ExternalIdentity.Key key, Optional<String> display, Optional<String> email,
            Map<String, Object> details) {
        public ProviderIdentity {
            java.util.Objects.requireNonNull(key, "key is null");
            java.util.Objects.requireNonNull(display, "display is null");
            java.util.Objects.requireNonNull(email, "email is null");
            details = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(details));
        }

        public ProviderIdentity(ExternalIdentity.Key key, Optional<String> display, Optional<String> email) {
            this(key, display, email, Map.of());
        }
    }
}
