package dev.klave.simulator;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Static bearer tokens, as kube-apiserver's token file authenticator holds them. */
final class Authenticator {
    private final Map<String, UserInfo> tokens = new ConcurrentHashMap<>();

    void add(String token, UserInfo user) {
        if (token.isBlank()) {
            throw new IllegalArgumentException("token is blank");
        }
        tokens.put(token, user);
    }

    void revoke(String token) {
        tokens.remove(token);
    }

    Optional<UserInfo> authenticate(HttpRequest request) {
        Optional<String> authorization = request.header("authorization");
        if (authorization.isEmpty()) {
            return Optional.empty();
        }
        String value = authorization.get().strip();
        if (!value.toLowerCase(Locale.ROOT).startsWith("bearer ")) {
            return Optional.empty();
        }
        return Optional.ofNullable(tokens.get(value.substring("bearer ".length()).strip()));
    }
}
