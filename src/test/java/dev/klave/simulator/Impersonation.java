package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The apiserver's impersonation filter (k8s.io/apiserver/pkg/endpoints/filters/impersonation.go):
 * each requested identity is an authorization check of verb {@code impersonate} on users, groups,
 * serviceaccounts, uids or userextras, by the authenticated caller, in that order; the first refusal
 * answers 403. The impersonated user gets {@code system:authenticated} added.
 */
final class Impersonation {
    private static final String USER = "impersonate-user";
    private static final String GROUP = "impersonate-group";
    private static final String UID = "impersonate-uid";
    private static final String EXTRA_PREFIX = "impersonate-extra-";
    private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

    private final RbacAuthorizer authorizer;

    Impersonation(RbacAuthorizer authorizer) {
        this.authorizer = requireNonNull(authorizer, "authorizer is null");
    }

    static boolean requested(HttpRequest request) {
        return request.headers().keySet().stream().anyMatch(name -> name.startsWith("impersonate-"));
    }

    UserInfo apply(UserInfo requester, HttpRequest request) {
        List<String> users = request.headers().getOrDefault(USER, List.of());
        List<String> groups = request.headers().getOrDefault(GROUP, List.of());
        List<String> uids = request.headers().getOrDefault(UID, List.of());
        Map<String, List<String>> extras = new LinkedHashMap<>();
        request.headers().forEach((name, values) -> {
            if (name.startsWith(EXTRA_PREFIX)) {
                extras.put(name.substring(EXTRA_PREFIX.length()).toLowerCase(Locale.ROOT), values);
            }
        });
        if (users.isEmpty()) {
            if (!groups.isEmpty() || !uids.isEmpty() || !extras.isEmpty()) {
                throw ApiException.internal("requested impersonation of groups, uid or extra without impersonating a user");
            }
            return requester;
        }
        if (users.size() > 1 || uids.size() > 1) {
            throw ApiException.badRequest("only one Impersonate-User and one Impersonate-Uid header may be sent");
        }
        String username = users.getFirst();
        List<String> impersonatedGroups = new ArrayList<>();
        if (username.startsWith(SERVICE_ACCOUNT_PREFIX)) {
            String[] parts = username.substring(SERVICE_ACCOUNT_PREFIX.length()).split(":", 2);
            if (parts.length != 2) {
                throw ApiException.badRequest("invalid service account user " + username);
            }
            check(requester, "", "v1", "serviceaccounts", "", parts[0], parts[1]);
            if (groups.isEmpty()) {
                impersonatedGroups.add("system:serviceaccounts");
                impersonatedGroups.add("system:serviceaccounts:" + parts[0]);
            }
        } else {
            check(requester, "", "v1", "users", "", "", username);
        }
        for (String group : groups) {
            check(requester, "", "v1", "groups", "", "", group);
            impersonatedGroups.add(group);
        }
        for (Map.Entry<String, List<String>> extra : extras.entrySet()) {
            for (String value : extra.getValue()) {
                check(requester, "authentication.k8s.io", "v1", "userextras", extra.getKey(), "", value);
            }
        }
        String uid = "";
        if (!uids.isEmpty()) {
            uid = uids.getFirst();
            check(requester, "authentication.k8s.io", "v1", "uids", "", "", uid);
        }
        if (!impersonatedGroups.contains("system:authenticated") && !impersonatedGroups.contains("system:unauthenticated")) {
            impersonatedGroups.add("system:authenticated");
        }
        return new UserInfo(username, uid, impersonatedGroups, extras);
    }

    private void check(UserInfo requester, String group, String version, String resource, String subresource,
            String namespace, String name) {
        AuthorizationAttributes attributes = new AuthorizationAttributes(requester, "impersonate", true, group,
                version, resource, subresource, namespace, name, "");
        RbacAuthorizer.Decision decision = authorizer.authorize(attributes);
        if (!decision.allowed()) {
            throw attributes.forbidden(decision.reason());
        }
    }
}
