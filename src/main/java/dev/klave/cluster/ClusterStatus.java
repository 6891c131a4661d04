package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

/**
 * A cluster's status in {@code GET /api/clusters} (spec 1 §2 "Cluster"; its values are "not shown"
 * in spec 1 §3): {@code pending} until the bootstrap JSON is stored, then {@code ready} or
 * {@code error} after the last reconciliation.
 */
public enum ClusterStatus {
    PENDING("pending"),
    READY("ready"),
    ERROR("error");

    private final String code;

    ClusterStatus(String code) {
        this.code = requireNonNull(code, "code is null");
    }

    /** The value the API sends. */
    public String code() {
        return code;
    }

    /** The value whose text is {@code code}; anything else is refused. */
    public static ClusterStatus parse(String code) {
        for (ClusterStatus value : values()) {
            if (value.code.equals(code)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown cluster status: " + code);
    }
}
