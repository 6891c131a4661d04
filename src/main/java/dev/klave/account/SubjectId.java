package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.util.UUID;

/** The internal identifier of a subject; also its uid in Kubernetes impersonation (spec 1 §1.3). */
public record SubjectId(String value) {
    public SubjectId {
        requireNonNull(value, "value is null");
        UUID.fromString(value);
    }

    /** Whether {@code text} could be a subject's id (a UUID); asking for one that is not finds none. */
    public static boolean isValid(String text) {
        try {
            UUID.fromString(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    public static SubjectId random() {
        return new SubjectId(UUID.randomUUID().toString());
    }

    @Override
    public String toString() {
        return value;
    }
}
