package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.config.AddressGroups;
import dev.klave.crypto.SecretToken;
import dev.klave.limits.PerAddressLimit;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.storage.RateWindowStore;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The limits on password guessing (spec 1 §5, §8): 10 attempts per minute from one address, and
 * a login locked for 15 minutes after 5 failures. Both are counted in the database, so they hold
 * however many replicas share it. A sign-in refused by the lock is not tried, so it is no attempt
 * of the address (issue 45: a refused call adds nothing to a count): the lock is asked first, and
 * only a sign-in that goes on to check a password counts.
 *
 * <p>The lockout counts the login as typed, whether an account has it or not: were only accounts
 * counted, five failures would answer {@code 429} for a login that exists and {@code 401} for one
 * that does not, telling which logins exist. A text that cannot be a login is counted under its
 * SHA-256, so the table holds no arbitrary text.
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
     * @throws Refusal {@code TOO_MANY_ATTEMPTS} past 10 in the current minute
     */
    public void countAttempt(InetAddress client) {
        perAddress.count(client);
    }

    /**
     * The refusal of {@code typedLogin} while it is locked: 429 with the lock's remaining time as
     * {@code Retry-After} (spec 1 §5 2); empty when it is not locked. One read, so the lock cannot
     * end between asking and answering.
     */
    public Optional<Refusal> lock(String typedLogin) {
        Instant now = clock.instant();
        return failures.state(key(typedLogin)).lockedUntil().filter(now::isBefore)
                .map(until -> Message.TOO_MANY_ATTEMPTS.refusal()
                        .retryingAfter(Duration.between(now, until)));
    }

    /** Counts a failed password sign-in of {@code typedLogin}; returns whether it is now locked. */
    public boolean failed(String typedLogin) {
        return failures.recordFailure(key(typedLogin), MAX_FAILURES, clock.instant().plus(LOCK))
                .lockedAt(clock.instant());
    }

    public void succeeded(String typedLogin) {
        failures.clear(key(typedLogin));
    }

    /** A login as it is; any other text as {@code sha256:<hex>}, which no login can be. */
    static String key(String typedLogin) {
        String text = typedLogin == null ? "" : typedLogin;
        return Login.isValid(text) ? text : "sha256:" + SecretToken.sha256(text);
    }
}
