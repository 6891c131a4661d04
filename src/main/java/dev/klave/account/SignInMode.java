package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.util.EnumSet;
import java.util.Set;

/**
 * How people sign in (spec 1 §5 "Modes"): by password only, or through external providers (the
 * forge App, an OIDC provider, or both), in which case only break-glass accounts' passwords
 * still work. Derived once from the settings; the server and the CLI use the same value.
 */
public record SignInMode(Set<IdentityProvider> providers) {
    public static final SignInMode PASSWORD = new SignInMode(Set.of());

    public SignInMode {
        providers = providers.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(requireNonNull(providers)));
    }

    public static SignInMode of(boolean forge, boolean oidc) {
        Set<IdentityProvider> on = EnumSet.noneOf(IdentityProvider.class);
        if (forge) {
            on.add(IdentityProvider.FORGE);
        }
        if (oidc) {
            on.add(IdentityProvider.OIDC);
        }
        return new SignInMode(on);
    }

    /** Whether people sign in through a provider (and passwords are for break-glass accounts only). */
    public boolean external() {
        return !providers.isEmpty();
    }

    public boolean uses(IdentityProvider provider) {
        return providers.contains(provider);
    }

    /** Whether {@code subject}'s password may be used to sign in under this mode. */
    public boolean passwordAllowed(Subject subject) {
        return !external() || subject.breakGlass();
    }
}
