package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * Which subjects the administrators' listing shows (empty: any): those whose login, name or
 * e-mail contains {@code text} (any case), of one kind, enabled or disabled, administrators only.
 */
public record SubjectFilter(Optional<String> text, Optional<SubjectKind> kind, Optional<Boolean> enabled,
        boolean adminsOnly) {
    public static final SubjectFilter ANY = new SubjectFilter(Optional.empty(), Optional.empty(), Optional.empty(),
            false);

    public SubjectFilter(Optional<String> text, Optional<SubjectKind> kind, Optional<Boolean> enabled) {
        this(text, kind, enabled, false);
    }

    public SubjectFilter {
        requireNonNull(text, "text is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(enabled, "enabled is null");
    }
}
