package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.Via;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * {@code klave_sign_ins_total{method,result}}: sign-ins by method ({@code password}, {@code forge},
 * {@code oidc}) and result ({@code success}, {@code failure}), every counter made at start so that
 * each series exists from the first scrape. A failure is any sign-in that opened no session: a
 * wrong password, a refused or cancelled provider sign-in, a throttled attempt.
 */
public final class SignInMeters {
    private final Map<Via, Counter> successes = new EnumMap<>(Via.class);
    private final Map<Via, Counter> failures = new EnumMap<>(Via.class);

    public SignInMeters(MeterRegistry registry) {
        requireNonNull(registry, "registry is null");
        for (Via method : List.of(Via.PASSWORD, Via.FORGE, Via.OIDC)) {
            successes.put(method, counter(registry, method, "success"));
            failures.put(method, counter(registry, method, "failure"));
        }
    }

    /** Counts nothing (the CLI, tests that do not look). */
    public static SignInMeters none() {
        return new SignInMeters(new CompositeMeterRegistry());
    }

    private static Counter counter(MeterRegistry registry, Via method, String result) {
        return Counter.builder("klave.sign.ins")
                .description("Sign-ins by method and result")
                .tags("method", method.code(), "result", result)
                .register(registry);
    }

    void succeeded(Via method) {
        successes.get(method).increment();
    }

    void failed(Via method) {
        failures.get(method).increment();
    }
}
