package dev.klave.account;

/**
 * How people sign in (spec 1 §5 "Modes"): by password only, or through the forge App or an OIDC
 * provider, in which case only break-glass accounts' passwords still work.
 */
public enum SignInMode {
    PASSWORD,
    EXTERNAL;

    /** Whether {@code subject}'s password may be used to sign in under this mode. */
    public boolean passwordAllowed(Subject subject) {
        return this == PASSWORD || subject.breakGlass();
    }
}
