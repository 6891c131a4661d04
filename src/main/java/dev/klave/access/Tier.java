package dev.klave.access;

import java.util.Optional;

/**
 * The tiers of access (spec 1 §4 {@code GET /api/tiers}); each binds the Kubernetes built-in
 * ClusterRole of the same name, so what a tier allows is what that role allows.
 */
public enum Tier {
    VIEW("view", false, true, "leer casi todo en el ámbito (no los Secrets), sin cambiar nada"),
    EDIT("edit", true, true, "crear, cambiar y borrar cargas de trabajo, ConfigMaps y Secrets; sin tocar permisos"),
    ADMIN("admin", true, true, "todo lo de editar más Roles y RoleBindings del namespace"),
    CLUSTER_ADMIN("cluster-admin", true, false, "control total del cluster; solo sobre *");

    private final String code;
    private final boolean writes;
    private final boolean onNamespace;
    private final String description;

    Tier(String code, boolean writes, boolean onNamespace, String description) {
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
        return description;
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
