package dev.klave.login.forge;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The organisation's two-factor requirement, asked of the forge at most every 10 minutes
 * (spec 1 §8 "2FA answer cache"). A failure is not cached: the next sign-in asks again.
 */
final class TwoFactorCache {
    static final Duration TTL = Duration.ofMinutes(10);

    private final ForgeApi forge;
    private final Clock clock;
    private Answer answer;

    TwoFactorCache(ForgeApi forge, Clock clock) {
        this.forge = requireNonNull(forge, "forge is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    private record Answer(Optional<Boolean> required, Instant at) {}

    /** Empty when the App cannot read the setting (no Administration permission). */
    synchronized Optional<Boolean> required() throws ForgeUnavailableException {
        Instant now = clock.instant();
        if (answer != null && now.isBefore(answer.at().plus(TTL)) && !now.isBefore(answer.at())) {
            return answer.required();
        }
        Optional<Boolean> fresh = forge.twoFactorRequired();
        answer = new Answer(fresh, now);
        return fresh;
    }
}
