package dev.klave.storage;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Counters of calls served over a sliding span of time, shared by every replica: the per-address
 * limits (spec 1 §8: sign-ins, CI exchanges; spec 3 §8: registration, authorization, tokens) and
 * the per-credential limit of {@code /mcp}. Calls are kept per second, so the span slides a second
 * at a time; a burst across the turn of a calendar minute is counted as one.
 *
 * <p>Only calls served count: a refused call adds nothing, so a client that retries more often
 * than the limit allows is served as soon as the span has room again — it never extends its own
 * refusal — and is told exactly when that is.
 */
public interface RateWindowStore {
    /**
     * Serves one call of {@code bucket} at {@code at} if fewer than {@code limit} were served in
     * the {@code span} ending at {@code at}, counting it; otherwise counts nothing. Across replicas
     * the check and the count are one step per bucket.
     *
     * @return empty when served; when refused, how long until a call would be served (at least
     *     until the oldest call counted in the span leaves it)
     */
    Optional<Duration> admit(String bucket, Instant at, Duration span, int limit);
}
