package dev.klave.login;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.klave.crypto.Hmac;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The signed, short-lived cookie that carries a {@link SignInState} from the start of an external
 * sign-in to its callback, shared by the forge and OIDC logins. HMAC-SHA256 with a key derived
 * from {@code SERVICE_ENCRYPTION_KEY}; 10 minutes (spec 1 §8); HttpOnly; SameSite=Lax, which the
 * provider's top-level redirect back still carries; scoped to the callback path, so no other
 * request sends it; Secure on https. It is signed, not encrypted: it holds no secret of the
 * person's, and the PKCE verifier in it is useless without the code that only the provider's
 * redirect carries.
 */
public final class StateCookie {
    public static final Duration LIFETIME = Duration.ofMinutes(10);
    /** Far above any real state; a larger cookie is not even parsed. */
    private static final int MAX_LENGTH = 4096;
    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new Jdk8Module())
            .registerModule(new JavaTimeModule());

    private final String name;
    private final String path;
    private final Hmac signer;
    private final boolean secure;
    private final Clock clock;

    /**
     * @param name the cookie's name, one per sign-in method so two sign-ins in flight do not meet
     * @param path the callback's path, the only one the browser sends the cookie to
     */
    public StateCookie(String name, String path, Hmac signer, boolean secure, Clock clock) {
        this.name = requireNonNull(name, "name is null");
        this.path = requireNonNull(path, "path is null");
        this.signer = requireNonNull(signer, "signer is null");
        this.secure = secure;
        this.clock = requireNonNull(clock, "clock is null");
    }

    public Instant expiry() {
        return clock.instant().plus(LIFETIME);
    }

    /** The {@code Set-Cookie} value that stores {@code state}. */
    public String set(SignInState state) {
        String payload;
        try {
            payload = Base64.getUrlEncoder().withoutPadding().encodeToString(JSON.writeValueAsBytes(state));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the sign-in state", e);
        }
        return name + "=" + payload + "." + signer.sign(name + "." + payload) + attributes(LIFETIME.toSeconds());
    }

    /** The {@code Set-Cookie} value that removes the cookie: a state serves one callback only. */
    public String clear() {
        return name + "=" + attributes(0);
    }

    private String attributes(long maxAge) {
        return "; Path=" + path + "; Max-Age=" + maxAge + "; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
    }

    /**
     * The state in the request's cookies, when it is there, signed by us and not expired. The
     * signature covers the cookie's name, so one method's state never passes for another's.
     */
    public Optional<SignInState> read(List<String> cookieHeaders) {
        for (String header : cookieHeaders) {
            for (String pair : header.split(";")) {
                String trimmed = pair.strip();
                if (!trimmed.startsWith(name + "=")) {
                    continue;
                }
                String value = trimmed.substring(name.length() + 1);
                int dot = value.lastIndexOf('.');
                if (value.length() > MAX_LENGTH || dot <= 0
                        || !signer.verify(name + "." + value.substring(0, dot), value.substring(dot + 1))) {
                    return Optional.empty();
                }
                try {
                    SignInState state = JSON.readValue(Base64.getUrlDecoder().decode(value.substring(0, dot)),
                            SignInState.class);
                    return state.expiresAt().isAfter(clock.instant()) ? Optional.of(state) : Optional.empty();
                } catch (java.io.IOException | IllegalArgumentException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }
}
