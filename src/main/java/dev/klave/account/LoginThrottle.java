package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.config.AddressGroups;
import dev.klave.limits.PerAddressLimit;
import dev.klave.storage.RateWindowStore;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;

/**
 * The limits on password guessing (spec 1 §5, §8): 10 attempts per minute from one address, and
 * an account locked for 15 minutes after 5 failures. Both are counted in the database, so they
 * hold however many replicas share it.
 */
public final class LoginThrottle {
    public static final int ATTEMPTS_PER_MINUTE = 10;
    public static final int MAX_FAILURES = 5;
    public static final Duration LOCK = Duration.ofMinutes(15);

    private final PerAddressLimit perAddress;
    private final LoginFailureStore failures;
    private final Clock clock;

    public LoginThrottle(RateWindowStore windows, LoginFailureStore failures, AddressGroups groups, Clock clock) {
        this.perAddress = new PerAddressLimit(windows, "login-ip:", ATTEMPTS_PER_MINUTE, groups, clock);
        this.failures = requireNonNull(failures, "failures is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Counts one attempt from {@code client} (password or forge sign-in share it).
     *
     * @throws dev.klave.messages.Refusal {@code TOO_MANY_ATTEMPTS} past 10 in the current minute
     */
    public void countAttempt(InetAddress client) {
        perAddress.count(client);
    }

    public boolean locked(SubjectId subject) {
        return failures.state(subject).lockedAt(clock.instant());
    }

    /** Counts a wrong password; returns whether the account is now locked. */
    public boolean failed(SubjectId subject) {
        return failures.recordFailure(subject, MAX_FAILURES, clock.instant().plus(LOCK)).lockedAt(clock.instant());
    }

    public void succeeded(SubjectId subject) {
        failures.clear(subject);
    }
}
