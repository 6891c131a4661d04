package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

/**
 * The {@code rbac_cleanup.status} of a cluster deletion (spec 1 §4 "Clusters": {@code ok},
 * {@code error}, {@code skipped}).
 */
public enum CleanupStatus {
    OK("ok"),
    ERROR("error"),
    SKIPPED("skipped");

    private final String code;

    CleanupStatus(String code) {
        this.code = requireNonNull(code, "code is null");
    }

    /** The value the API sends. */
    public String code() {
        return code;
    }

    /** The value whose text is {@code code}; anything else is refused. */
    public static CleanupStatus parse(String code) {
        for (CleanupStatus value : values()) {
            if (value.code.equals(code)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown clean-up status: " + code);
    }
}
