package dev.klave.audit;

import static java.util.Objects.requireNonNull;

/**
 * How a control event came about (its {@code via}, spec 1 §6, spec 1 §5 "Automatic offboarding",
 * spec 2 §6): the way a person signed in or used a link, the path that made an account, or the
 * automatic path that disabled one.
 */
public enum Via {
    // Spec 1 §6 login.success / login.failure: "forge, oidc, …"; password sign-in is the third.
    PASSWORD("password"),
    FORGE("forge"),
    OIDC("oidc"),
    // Spec 2 §6 oidc.link.
    EMAIL("email"),
    // Spec 1 §5 "Automatic offboarding": user.disable without actor.
    FORGE_SYNC("forge-sync"),
    FORGE_WEBHOOK("forge-webhook"),
    // Not in the specification: where an account was created or marked break-glass, and the CI
    // exchange's credential.issue (named as the credential is, spec 1 §4 "CI exchange rules" 4).
    API("api"),
    CLI("cli"),
    FORGE_ACTIONS("forge-actions");

    private final String code;

    Via(String code) {
        this.code = requireNonNull(code, "code is null");
    }

    /** The value stored in the database and sent as {@code via}. */
    public String code() {
        return code;
    }

    /** The value whose stored text is {@code code}; anything else is refused. */
    public static Via parse(String code) {
        for (Via via : values()) {
            if (via.code.equals(code)) {
                return via;
            }
        }
        throw new IllegalArgumentException("unknown control-event via: " + code);
    }
}
