package dev.klave.login.forge;

import static dev.klave.login.SignInError.FORGE;
import static dev.klave.login.SignInError.NOT_MEMBER;
import static dev.klave.login.SignInError.NO_2FA;
import static java.util.Objects.requireNonNull;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.IdentityProvider;
import dev.klave.account.Subject;
import dev.klave.login.SignInFailure;
import dev.klave.login.SignInMethod;
import dev.klave.login.SignInState;
import dev.klave.messages.Untrusted;
import java.net.URI;
import java.time.Clock;
import java.util.Optional;

/**
 * Sign-in through the forge App (spec 1 §5 "Forge login checks" 2–7): the code is exchanged
 * server-side with the client secret, the person's numeric id read, and their token dropped;
 * then the account must be an active organisation member, and the organisation must enforce
 * two-factor when {@code FORGE_REQUIRE_ORG_2FA} is on and the App can tell.
 */
public final class ForgeSignIn implements SignInMethod {
    private final ForgeApi forge;
    private final URI callback;
    private final boolean requireTwoFactor;
    private final TwoFactorCache twoFactor;

    public ForgeSignIn(ForgeApi forge, URI callback, boolean requireTwoFactor, Clock clock) {
        this.forge = requireNonNull(forge, "forge is null");
        this.callback = requireNonNull(callback, "callback is null");
        this.requireTwoFactor = requireTwoFactor;
        this.twoFactor = new TwoFactorCache(forge, clock);
    }

    @Override
    public IdentityProvider provider() {
        return IdentityProvider.FORGE;
    }

    @Override
    public URI authorizationUrl(SignInState state, boolean selectAccount) {
        return forge.authorizationUrl(state.state(), callback);
    }

    @Override
    public ProviderIdentity identify(String code, SignInState state) throws SignInFailure {
        ForgeUser user;
        try {
            // The person's token lives only in this frame: never stored, logged or returned.
            String token = forge.exchangeCode(code, callback);
            user = forge.user(token);
        } catch (ForgeApi.CodeRejectedException e) {
            throw SignInFailure.of(FORGE, "the forge refused the code: " + Untrusted.text(e.getMessage()));
        } catch (ForgeUnavailableException e) {
            throw SignInFailure.of(FORGE, e.getMessage());
        }
        return new ProviderIdentity(ExternalIdentity.Key.forge(user.id()), Optional.of(user.login()), Optional.empty());
    }

    @Override
    public void admit(ProviderIdentity identity, Subject subject) throws SignInFailure {
        String login = identity.display().orElseThrow();
        try {
            Optional<ForgeApi.Membership> membership = forge.membership(login);
            if (membership.isEmpty() || membership.get() != ForgeApi.Membership.ACTIVE) {
                throw SignInFailure.of(NOT_MEMBER, subject, Untrusted.text(login) + " is "
                        + membership.map(state -> "a pending member").orElse("not a member") + " of the organisation");
            }
            if (requireTwoFactor && twoFactor.required().map(required -> !required).orElse(false)) {
                throw SignInFailure.of(NO_2FA, subject, "the organisation does not require two-factor authentication");
            }
        } catch (ForgeUnavailableException e) {
            throw SignInFailure.of(FORGE, subject, e.getMessage());
        }
    }
}
