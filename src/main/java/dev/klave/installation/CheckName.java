package dev.klave.installation;

import static java.util.Objects.requireNonNull;

/** Which health check of the installation it is (GET /api/installation/health). */
public enum CheckName {
    DATABASE("database"),
    ADMIN_CAN_SIGN_IN("admin_can_sign_in"),
    OIDC_DISCOVERY("oidc_discovery"),
    FORGE_SYNC("forge_sync"),
    OAUTH_CLIENTS("oauth_clients");

    private final String code;

    CheckName(String code) {
        this.code = requireNonNull(code, "code is null");
    }

    /** The value the API sends. */
    public String code() {
        return code;
    }

    /** The value whose text is {@code code}; anything else is refused. */
    public static CheckName parse(String code) {
        for (CheckName value : values()) {
            if (value.code.equals(code)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown health check: " + code);
    }
}
