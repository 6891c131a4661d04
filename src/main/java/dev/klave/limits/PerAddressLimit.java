package dev.klave.limits;

import static java.util.Objects.requireNonNull;

import dev.klave.config.AddressGroups;
import dev.klave.messages.Message;
import dev.klave.storage.RateWindowStore;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * At most {@code perMinute} requests from one client address in any 60 seconds (a sliding minute,
 * so no burst fits twice the limit across the turn of a calendar minute), counted in the database
 * so that every replica shares the count (spec 1 §8: sign-ins, CI exchanges). Only requests served
 * count: a refused one is told, in its {@code Retry-After}, when the next will be served, and a
 * client that keeps trying is served as soon as the minute has room. An IPv6 client is counted by its block
 * ({@link AddressGroups}): it could otherwise take a new address from its /64 for every attempt.
 */
public final class PerAddressLimit {
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final RateWindowStore windows;
    private final String bucketPrefix;
    private final int perMinute;
    private final AddressGroups groups;
    private final Clock clock;
    private final Message refusal;

    /** @param bucketPrefix names the limit's counters, e.g. {@code login-ip:} */
    public PerAddressLimit(RateWindowStore windows, String bucketPrefix, int perMinute, AddressGroups groups,
            Clock clock) {
        this(windows, bucketPrefix, perMinute, groups, clock, Message.TOO_MANY_ATTEMPTS);
    }

    /** @param refusal what a request past the limit is refused with (a 429 of the endpoint's own) */
    public PerAddressLimit(RateWindowStore windows, String bucketPrefix, int perMinute, AddressGroups groups,
            Clock clock, Message refusal) {
        this.refusal = requireNonNull(refusal, "refusal is null");
        this.windows = requireNonNull(windows, "windows is null");
        this.bucketPrefix = requireNonNull(bucketPrefix, "bucketPrefix is null");
        this.groups = requireNonNull(groups, "groups is null");
        this.clock = requireNonNull(clock, "clock is null");
        if (perMinute <= 0) {
            throw new IllegalArgumentException("perMinute must be positive");
        }
        this.perMinute = perMinute;
    }

    /**
     * Counts one request from {@code client}.
     *
     * @throws dev.klave.messages.Refusal the limit's refusal ({@code TOO_MANY_ATTEMPTS} unless told)
     *     past the limit in the last minute
     */
    public void count(InetAddress client) {
        Optional<Duration> wait = windows.admit(bucketPrefix + groups.key(client), clock.instant(), MINUTE, perMinute);
        if (wait.isPresent()) {
            throw refusal.refusal().retryingAfter(wait.get());
        }
    }
}
