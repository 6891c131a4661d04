package dev.klave.reconcile;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Grant;
import dev.klave.access.KubernetesIdentity;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.Subject;
import java.util.Collection;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/** What the cluster's managed RBAC must say, computed from the effective grants alone. */
public record DesiredRbac(SortedSet<String> users, SortedSet<String> uids, SortedSet<String> groups,
        SortedSet<Binding> bindings) {
    public DesiredRbac {
        users = new TreeSet<>(requireNonNull(users, "users is null"));
        uids = new TreeSet<>(requireNonNull(uids, "uids is null"));
        groups = new TreeSet<>(requireNonNull(groups, "groups is null"));
        bindings = new TreeSet<>(requireNonNull(bindings, "bindings is null"));
    }

    /** One binding of a tier on a scope to its group. */
    public record Binding(Tier tier, Scope scope) implements Comparable<Binding> {
        /** The object's name: {@code klave-<tier>} in the namespace, or cluster-wide for {@code *}. */
        public String name() {
            return "klave-" + tier.code();
        }

        public String group() {
            return Grant.groupOf(tier, scope);
        }

        @Override
        public int compareTo(Binding other) {
            int byScope = scope.value().compareTo(other.scope.value());
            return byScope != 0 ? byScope : tier.compareTo(other.tier);
        }
    }

    /** The impersonated user name of a subject (spec 1 §1.3); see {@link KubernetesIdentity}. */
    public static String userName(Subject subject) {
        return KubernetesIdentity.userName(subject);
    }

    /** From the active grants of enabled subjects, with each grant's subject. */
    public static DesiredRbac of(Collection<Grant> grants, Map<String, Subject> subjectsById) {
        TreeSet<String> users = new TreeSet<>();
        TreeSet<String> uids = new TreeSet<>();
        TreeSet<String> groups = new TreeSet<>();
        TreeSet<Binding> bindings = new TreeSet<>();
        for (Grant grant : grants) {
            Subject subject = subjectsById.get(grant.subjectId().value());
            if (subject == null || !subject.enabled()) {
                continue;
            }
            users.add(userName(subject));
            uids.add(subject.id().value());
            groups.add(grant.group());
            bindings.add(new Binding(grant.tier(), grant.scope()));
        }
        return new DesiredRbac(users, uids, groups, bindings);
    }
}
