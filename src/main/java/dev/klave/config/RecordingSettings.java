package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * Recorded sessions (issue 42): the most one session's recording may take ({@code
 * SERVICE_RECORDING_CAP_MIB}, default 64), the most all recordings together may take ({@code
 * SERVICE_RECORDING_QUOTA_MIB}, default 10240), and how long they are kept ({@code
 * SERVICE_RECORDING_RETENTION}; unset: as long as the audit, {@code SERVICE_AUDIT_RETENTION}).
 */
public record RecordingSettings(long capBytes, long quotaBytes, Optional<Duration> retention) {
    public static final RecordingSettings DEFAULTS = new RecordingSettings(64L << 20, 10240L << 20, Optional.empty());

    public RecordingSettings {
        requireNonNull(retention, "retention is null");
        if (capBytes <= 0 || quotaBytes < capBytes) {
            throw new IllegalArgumentException("the cap is positive and the quota at least the cap");
        }
    }
}
