package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SignInMode;

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

    /** With either external method on, passwords work for break-glass accounts only (spec 1 §5). */
    public SignInMode mode() {
        return forge || oidc ? SignInMode.EXTERNAL : SignInMode.PASSWORD;
    }
}
