package dev.klave.access;

import dev.klave.messages.Text;
import java.util.Optional;

/**
 * The tiers of access (spec 1 §4 {@code GET /api/tiers}); each binds the Kubernetes built-in
 * ClusterRole of the same name, so what a tier allows is what that role allows.
 */
public enum Tier {
    VIEW("view", false, true, Text.TIER_VIEW),
    EDIT("edit", true, true, Text.TIER_EDIT),
    ADMIN("admin", true, true, Text.TIER_ADMIN),
    CLUSTER_ADMIN("cluster-admin", true, false, Text.TIER_CLUSTER_ADMIN);

    private final String code;
    private final boolean writes;
    private final boolean onNamespace;
    private final Text description;

    Tier(String code, boolean writes, boolean onNamespace, Text description) {
        this.code = code;
        this.writes = writes;
        this.onNamespace = onNamespace;
        this.description = description;
    }

    public String code() {
        return code;
    }

    /** Whether the tier can change workloads, which is why pod-security must be enforced first. */
    public boolean writes() {
        return writes;
    }

    /** Whether the tier may be scoped to one namespace ({@code cluster-admin} only applies to {@code *}). */
    public boolean onNamespace() {
        return onNamespace;
    }

    public String description() {
        return description.text();
    }

    /** The built-in ClusterRole the tier binds. */
    public String clusterRole() {
        return code;
    }

    public static Optional<Tier> fromCode(String code) {
        for (Tier tier : values()) {
            if (tier.code.equals(code)) {
                return Optional.of(tier);
            }
        }
        return Optional.empty();
    }
}
