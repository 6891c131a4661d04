package dev.klave.limits;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import dev.klave.storage.RateWindowStore;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * At most {@code perMinute} requests from one client address in each calendar minute, counted in
 * the database so that every replica shares the count (spec 1 §8: sign-ins, CI exchanges).
 */
public final class PerAddressLimit {
    private final RateWindowStore windows;
    private final String bucketPrefix;
    private final int perMinute;
    private final Clock clock;

    /** @param bucketPrefix names the limit's counters, e.g. {@code login-ip:} */
    public PerAddressLimit(RateWindowStore windows, String bucketPrefix, int perMinute, Clock clock) {
        this.windows = requireNonNull(windows, "windows is null");
        this.bucketPrefix = requireNonNull(bucketPrefix, "bucketPrefix is null");
        this.clock = requireNonNull(clock, "clock is null");
        if (perMinute <= 0) {
            throw new IllegalArgumentException("perMinute must be positive");
        }
        this.perMinute = perMinute;
    }

    /**
     * Counts one request from {@code client}.
     *
     * @throws dev.klave.messages.Refusal {@code TOO_MANY_ATTEMPTS} past the limit in the current minute
     */
    public void count(InetAddress client) {
        Instant window = clock.instant().truncatedTo(ChronoUnit.MINUTES);
        int hits = windows.hit(bucketPrefix + client.getHostAddress(), window, window.minus(Duration.ofMinutes(1)));
        if (hits > perMinute) {
            throw Message.TOO_MANY_ATTEMPTS.refusal();
        }
    }
}
