package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Recorded sessions (issues 42 and 51): the most one session's recording may take ({@code
 * SERVICE_RECORDING_CAP_MIB}, default 64), the most all recordings together may take ({@code
 * SERVICE_RECORDING_QUOTA_MIB}, default 10240), the most one person's may take together ({@code
 * SERVICE_RECORDING_SHARE_MIB}, default 1024: nobody fills the quota for everyone), and how long they
 * are kept ({@code SERVICE_RECORDING_RETENTION}; unset, as long as the audit, {@code
 * SERVICE_AUDIT_RETENTION}, and {@link #DEFAULT_RETENTION} when that is unset too — never for ever,
 * or a full quota would stay full).
 */
public record RecordingSettings(long capBytes, long quotaBytes, long shareBytes, Duration retention) {
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(90);
    public static final RecordingSettings DEFAULTS = new RecordingSettings(64L << 20, 10240L << 20, 1024L << 20,
            DEFAULT_RETENTION);

    public RecordingSettings {
        requireNonNull(retention, "retention is null");
        if (capBytes <= 0 || quotaBytes < capBytes || shareBytes < capBytes || shareBytes > quotaBytes) {
            throw new IllegalArgumentException("the cap is positive, the share at least the cap, the quota at least "
                    + "the share");
        }
    }
}
