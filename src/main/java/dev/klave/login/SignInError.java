package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.account.IdentityProvider;
import java.util.EnumSet;
import java.util.Set;

/**
 * The failure codes of an external sign-in (spec 1 §7 "Forge login failure codes", spec 2 §7):
 * the {@code error} of {@code /login?error=<code>} and the {@code reason} of {@code login.failure}.
 * Each code says which providers send it, as the two tables list it.
 */
public enum SignInError {
    STATE("state", Sends.BOTH),
    DENIED("denied", Sends.BOTH),
    RATE_LIMITED("rate_limited", Sends.BOTH),
    UNKNOWN_ACCOUNT("unknown_account", Sends.BOTH),
    DISABLED("disabled", Sends.BOTH),
    LINK_GONE("link_gone", Sends.BOTH),
    ALREADY_LINKED("already_linked", Sends.BOTH),
    SERVER("server", Sends.BOTH),
    // Spec 1 §7 only.
    FORGE("forge", Sends.FORGE),
    NOT_MEMBER("not_member", Sends.FORGE),
    NO_2FA("no_2fa", Sends.FORGE),
    FORGE_TAKEN("forge_taken", Sends.FORGE),
    // Spec 2 §7 only.
    OIDC("oidc", Sends.OIDC),
    PROVIDER_UNAVAILABLE("provider_unavailable", Sends.OIDC),
    TOKEN("token", Sends.OIDC),
    NO_EMAIL("no_email", Sends.OIDC),
    EMAIL_UNVERIFIED("email_unverified", Sends.OIDC),
    DOMAIN_NOT_ALLOWED("domain_not_allowed", Sends.OIDC),
    AMBIGUOUS_ACCOUNT("ambiguous_account", Sends.OIDC),
    IDENTITY_MISMATCH("identity_mismatch", Sends.OIDC),
    OIDC_TAKEN("oidc_taken", Sends.OIDC);

    private enum Sends { FORGE, OIDC, BOTH }

    private final String code;
    private final Sends sends;

    SignInError(String code, Sends sends) {
        this.code = requireNonNull(code, "code is null");
        this.sends = requireNonNull(sends, "sends is null");
    }

    /** The text of {@code ?error=} and of the event's {@code reason}. */
    public String code() {
        return code;
    }

    /** The providers whose sign-in can fail with this code. */
    public Set<IdentityProvider> providers() {
        return switch (sends) {
            case FORGE -> EnumSet.of(IdentityProvider.FORGE);
            case OIDC -> EnumSet.of(IdentityProvider.OIDC);
            case BOTH -> EnumSet.allOf(IdentityProvider.class);
        };
    }

    /** The code for "the provider did not answer as expected": {@code forge} or {@code oidc}. */
    public static SignInError providerFailed(IdentityProvider provider) {
        return switch (provider) {
            case FORGE -> FORGE;
            case OIDC -> OIDC;
        };
    }

    /** The code for "this identity already opens another account": {@code forge_taken} or {@code oidc_taken}. */
    public static SignInError taken(IdentityProvider provider) {
        return switch (provider) {
            case FORGE -> FORGE_TAKEN;
            case OIDC -> OIDC_TAKEN;
        };
    }

    /** The error whose text is {@code code}; anything else is refused. */
    public static SignInError parse(String code) {
        for (SignInError error : values()) {
            if (error.code.equals(code)) {
                return error;
            }
        }
        throw new IllegalArgumentException("unknown sign-in error: " + code);
    }
}
