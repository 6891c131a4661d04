package dev.klave.access;

import dev.klave.account.Subject;
import dev.klave.account.SubjectKind;

/** How a subject is named to a cluster: the same name for the reconciler's bindings and the gateway's impersonation. */
public final class KubernetesIdentity {
    private KubernetesIdentity() {}

    /** The impersonated user name of a subject (spec 1 §1.3): {@code user:<login>} or {@code bot:<login>}. */
    public static String userName(Subject subject) {
        return (subject.kind() == SubjectKind.BOT ? "bot:" : "user:") + subject.login().value();
    }
}
