package dev.klave.credential;

import static java.util.Objects.requireNonNull;

/**
 * Where a credential stands (spec 1 §3 "Credential": valid, then revoked or expired), as
 * {@code GET /api/credentials} shows it; a valid one is {@code active}.
 */
public enum CredentialStatus {
    ACTIVE("active"),
    REVOKED("revoked"),
    EXPIRED("expired");

    private final String code;

    CredentialStatus(String code) {
        this.code = requireNonNull(code, "code is null");
    }

    /** The value the API sends. */
    public String code() {
        return code;
    }

    /** The value whose text is {@code code}; anything else is refused. */
    public static CredentialStatus parse(String code) {
        for (CredentialStatus value : values()) {
            if (value.code.equals(code)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown credential status: " + code);
    }
}
