package dev.klave.login;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.IdentityProvider;
import dev.klave.account.Subject;
import java.net.URI;
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

    /** The provider's authorization page for this sign-in. */
    URI authorizationUrl(SignInState state);

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

    /** Who the person is at the provider, as the callback established it. */
    record ProviderIdentity(ExternalIdentity.Key key, Optional<String> display, Optional<String> email) {
        public ProviderIdentity {
            java.util.Objects.requireNonNull(key, "key is null");
            java.util.Objects.requireNonNull(display, "display is null");
            java.util.Objects.requireNonNull(email, "email is null");
        }
    }
}
