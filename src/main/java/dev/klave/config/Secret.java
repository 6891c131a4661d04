package dev.klave.config;

import static java.util.Objects.requireNonNull;

/**
 * A setting that must never be printed: its {@code toString} hides the value, so a record holding
 * it can be logged or shown in an exception without leaking it.
 */
public final class Secret {
    private final String value;

    public Secret(String value) {
        this.value = requireNonNull(value, "value is null");
        if (value.isEmpty()) {
            throw new IllegalArgumentException("a secret cannot be empty");
        }
    }

    /** The value, for the one place that uses it (a signature, a request to the forge). */
    public String reveal() {
        return value;
    }

    @Override
    public String toString() {
        return "(secret)";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Secret secret && java.security.MessageDigest.isEqual(
                value.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                secret.value.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public int hashCode() {
        return 0;
    }
}
