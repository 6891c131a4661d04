package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SignInMode;
import dev.klave.config.ForgeSettings;
import dev.klave.config.OidcSettings;
import dev.klave.config.Settings;

/**
 * Which sign-in buttons the interface shows ({@code GET /api/auth/methods}, spec 1 §4, spec 2):
 * the forge App and its organisation, an OIDC provider and its display name.
 */
public record SignInMethods(boolean forge, String org, boolean oidc, String oidcName) {
    public static final SignInMethods PASSWORD_ONLY = new SignInMethods(false, "", false, "");

    public SignInMethods {
        requireNonNull(org, "org is null");
        requireNonNull(oidcName, "oidcName is null");
    }

    /**
     * The methods the settings turn on. The server and the CLI both derive the mode from here, so
     * {@code klave user create} judges passwords and the last administrator as the server does;
     * neither contacts a provider to find out.
     */
    public static SignInMethods from(Settings settings) {
        return new SignInMethods(settings.forge().isPresent(), settings.forge().map(ForgeSettings::org).orElse(""),
                settings.oidc().isPresent(), settings.oidc().map(OidcSettings::displayName).orElse(""));
    }

    /** With either external method on, passwords work for break-glass accounts only (spec 1 §5). */
    public SignInMode mode() {
        return SignInMode.of(forge, oidc, oidcName);
    }
}
