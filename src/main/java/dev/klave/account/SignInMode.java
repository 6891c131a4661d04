package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import java.util.EnumSet;
import java.util.Set;

/**
 * How people sign in (spec 1 §5 "Modes"): by password only, or through external providers (the
 * forge App, an OIDC provider, or both), in which case only break-glass accounts' passwords
 * still work. Derived once from the settings; the server and the CLI use the same value.
 */
public record SignInMode(Set<IdentityProvider> providers, String oidcName) {
    public static final SignInMode PASSWORD = new SignInMode(Set.of(), "");

    public SignInMode {
        providers = providers.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(requireNonNull(providers)));
        requireNonNull(oidcName, "oidcName is null");
    }

    public static SignInMode of(boolean forge, boolean oidc) {
        return of(forge, oidc, "");
    }

    /** @param oidcName the OIDC provider's display name ({@code OIDC_DISPLAY_NAME}), for refusals */
    public static SignInMode of(boolean forge, boolean oidc, String oidcName) {
        Set<IdentityProvider> on = EnumSet.noneOf(IdentityProvider.class);
        if (forge) {
            on.add(IdentityProvider.FORGE);
        }
        if (oidc) {
            on.add(IdentityProvider.OIDC);
        }
        return new SignInMode(on, oidcName);
    }

    /** Whether people sign in through a provider (and passwords are for break-glass accounts only). */
    public boolean external() {
        return !providers.isEmpty();
    }

    public boolean uses(IdentityProvider provider) {
        return providers.contains(provider);
    }

    /**
     * The refusal of a password operation by an account that signs in through a provider: spec 1
     * §7's text while the forge is on; with only an OIDC provider, the same sentence naming it.
     */
    public Refusal passwordNotUsed() {
        if (uses(IdentityProvider.FORGE) || !uses(IdentityProvider.OIDC)) {
            return Message.FORGE_ONLY_ACCOUNT.refusal();
        }
        return Message.PROVIDER_ONLY_ACCOUNT.refusal(oidcName.isBlank() ? "OIDC" : oidcName);
    }

    /** Whether {@code subject}'s password may be used to sign in under this mode. */
    public boolean passwordAllowed(Subject subject) {
        return !external() || subject.breakGlass();
    }
}
