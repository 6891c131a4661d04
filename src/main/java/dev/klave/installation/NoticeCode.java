package dev.klave.installation;

import static java.util.Objects.requireNonNull;

/** Which notice it is (GET /api/notices): the web interface and tests tell notices apart by it. */
public enum NoticeCode {
    OIDC_DISCOVERY_FAILING("oidc_discovery_failing"),
    OIDC_LINKED_BY_EMAIL("oidc_linked_by_email"),
    FORGE_2FA_UNREADABLE("forge_2fa_unreadable"),
    /** Issue 41: a notifications' destination keeps failing. */
    NOTIFY_DESTINATION_FAILING("notify_destination_failing");

    private final String code;

    NoticeCode(String code) {
        this.code = requireNonNull(code, "code is null");
    }

    /** The value the API sends. */
    public String code() {
        return code;
    }

    /** The value whose text is {@code code}; anything else is refused. */
    public static NoticeCode parse(String code) {
        for (NoticeCode value : values()) {
            if (value.code.equals(code)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown notice code: " + code);
    }
}
