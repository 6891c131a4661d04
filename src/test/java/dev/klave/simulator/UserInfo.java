package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/** Who a request acts as, after authentication and impersonation (k8s.io/apiserver user.Info). */
public record UserInfo(String name, String uid, List<String> groups, Map<String, List<String>> extra) {
    public UserInfo {
        requireNonNull(name, "name is null");
        requireNonNull(uid, "uid is null");
        groups = List.copyOf(groups);
        extra = Map.copyOf(extra);
    }

    public static UserInfo of(String name, List<String> groups) {
        return new UserInfo(name, "", groups, Map.of());
    }

    /** A service account's user, with the groups the token authenticator gives it. */
    static UserInfo serviceAccount(String namespace, String name) {
        return of("system:serviceaccount:" + namespace + ":" + name, List.of(
                "system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated"));
    }
}
