package dev.klave.account;

/** Where an external identity comes from: the forge App (spec 1) or the OIDC provider (spec 2). */
public enum IdentityProvider {
    FORGE("forge"),
    OIDC("oidc");

    private final String code;

    IdentityProvider(String code) {
        this.code = code;
    }

    /** The value stored in the database and named in events ({@code via}). */
    public String code() {
        return code;
    }

    public static IdentityProvider ofCode(String code) {
        for (IdentityProvider provider : values()) {
            if (provider.code.equals(code)) {
                return provider;
            }
        }
        throw new IllegalArgumentException("unknown identity provider: " + code);
    }
}
