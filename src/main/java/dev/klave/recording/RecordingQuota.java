package dev.klave.recording;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Text;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What recordings take, counted as their chunks are taken (issue 51 §3): the whole quota
 * ({@code SERVICE_RECORDING_QUOTA_MIB}) and each person's share of it
 * ({@code SERVICE_RECORDING_SHARE_MIB}), so that one person cannot fill it for everyone. A chunk
 * that would pass either is not taken: the recording stops there (under {@code required}, so does
 * the session). The counts are set again from the database every {@link Recordings#UPKEEP} — what
 * other replicas stored, what retention and deletes freed — and kept up to date here in between,
 * so a replica overshoots by at most one chunk per session, plus what other replicas took since the
 * last reading.
 */
final class RecordingQuota {
    /** The soonest a refused session is told to try again: when the counts are next read. */
    static final Duration SOONEST = Recordings.UPKEEP;
    /** Without a retention nothing frees room by itself: an administrator's delete does. */
    static final Duration WITHOUT_RETENTION = Duration.ofHours(1);

    private final long quota;
    private final long share;
    private final Optional<Duration> retention;
    private final Clock clock;
    private final AtomicLong total = new AtomicLong();
    private final Map<SubjectId, AtomicLong> taken = new ConcurrentHashMap<>();
    /** When each person's oldest recording began, and everyone's: what retention frees next. */
    private volatile Map<SubjectId, Instant> oldest = Map.of();
    private volatile Optional<Instant> oldestOfAll = Optional.empty();

    RecordingQuota(long quota, long share, Optional<Duration> retention, Clock clock) {
        if (quota <= 0 || share <= 0) {
            throw new IllegalArgumentException("the quota and the share are positive");
        }
        this.quota = quota;
        this.share = share;
        this.retention = requireNonNull(retention, "retention is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** The counts as the database has them now. */
    void read(List<RecordingStore.Usage> usage) {
        long sum = 0;
        Map<SubjectId, Instant> firsts = new ConcurrentHashMap<>();
        Map<SubjectId, Long> bytes = new ConcurrentHashMap<>();
        Instant first = null;
        for (RecordingStore.Usage one : usage) {
            sum += one.bytes();
            bytes.put(one.subject(), one.bytes());
            firsts.put(one.subject(), one.oldest());
            first = first == null || one.oldest().isBefore(first) ? one.oldest() : first;
        }
        total.set(sum);
        taken.keySet().retainAll(bytes.keySet());
        bytes.forEach((subject, count) -> taken.computeIfAbsent(subject, ignored -> new AtomicLong()).set(count));
        oldest = Map.copyOf(firsts);
        oldestOfAll = Optional.ofNullable(first);
    }

    /**
     * Takes {@code bytes} for {@code subject}'s recording; when they would pass the person's share
     * or the quota, takes nothing and says which.
     */
    Optional<String> take(SubjectId subject, long bytes) {
        AtomicLong mine = taken.computeIfAbsent(subject, ignored -> new AtomicLong());
        if (mine.addAndGet(bytes) > share) {
            mine.addAndGet(-bytes);
            return Optional.of(Text.RECORDING_SHARE.text());
        }
        if (total.addAndGet(bytes) > quota) {
            total.addAndGet(-bytes);
            mine.addAndGet(-bytes);
            return Optional.of(Text.RECORDING_QUOTA.text());
        }
        return Optional.empty();
    }

    /** A recording deleted: what it took is free again at once. */
    void free(SubjectId subject, long bytes) {
        total.addAndGet(-bytes);
        Optional.ofNullable(taken.get(subject)).ifPresent(mine -> mine.addAndGet(-bytes));
    }

    /**
     * Why a new session of {@code subject} cannot be recorded now — the share or the quota has no
     * room for one more chunk — with when to try again (the moment retention frees the oldest
     * recording that fills it): empty when it can.
     */
    Optional<Refusal> full(SubjectId subject) {
        AtomicLong mine = taken.get(subject);
        if (mine != null && mine.get() + Recorder.CHUNK > share) {
            return Optional.of(Message.RECORDING_REQUIRED_SHARE.refusal(share >> 20)
                    .retryingAfter(wait(Optional.ofNullable(oldest.get(subject)))));
        }
        if (total.get() + Recorder.CHUNK > quota) {
            return Optional.of(Message.RECORDING_REQUIRED_QUOTA.refusal().retryingAfter(wait(oldestOfAll)));
        }
        return Optional.empty();
    }

    /** Until retention deletes the recording that began at {@code first}; never sooner than the next reading. */
    private Duration wait(Optional<Instant> first) {
        if (retention.isEmpty()) {
            return WITHOUT_RETENTION;
        }
        Duration until = first.map(at -> Duration.between(clock.instant(), at.plus(retention.get())))
                .orElse(SOONEST);
        return until.compareTo(SOONEST) < 0 ? SOONEST : until;
    }
}
