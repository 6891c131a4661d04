package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Subject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An external sign-in that failed with one of the codes of spec 1 §7 "Forge login failure codes"
 * (and spec 2's). The browser goes to {@code /login?error=<code>} or {@code /mi-cuenta?error=<code>};
 * {@link #recorded()} says whether a {@code login.failure} event is written as well — spec 1 §7
 * keeps state failures of a missing, expired or other-session cookie, and internal errors, in the
 * log only. {@link #getMessage()} is the detail for the log: never a token.
 */
public final class SignInFailure extends Exception {
    private static final long serialVersionUID = 1L;

    private final SignInError error;
    private final boolean recorded;
    private final transient Optional<Subject> subject;
    private final transient Map<String, Object> details;

    private SignInFailure(SignInError error, boolean recorded, Optional<Subject> subject, String detail,
            Map<String, Object> details) {
        super(requireNonNull(detail, "detail is null"), null, false, false);
        this.error = requireNonNull(error, "error is null");
        this.recorded = recorded;
        this.subject = requireNonNull(subject, "subject is null");
        this.details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    private SignInFailure(SignInError error, boolean recorded, Optional<Subject> subject, String detail) {
        this(error, recorded, subject, detail, Map.of());
    }

    /** The same failure, its event naming more (spec 2 §6: e-mail, provider subject, candidates…). */
    public SignInFailure with(Map<String, ?> more) {
        Map<String, Object> all = new LinkedHashMap<>(more);
        all.putAll(details);
        return new SignInFailure(error, recorded, subject, getMessage(), all);
    }

    /** The same failure, about {@code account}. */
    public SignInFailure about(Subject account) {
        return new SignInFailure(error, recorded, Optional.of(account), getMessage(), details);
    }

    public Map<String, Object> details() {
        return details;
    }

    /** A failure written to the log and as a {@code login.failure} event. */
    public static SignInFailure of(SignInError error, String detail) {
        return new SignInFailure(error, true, Optional.empty(), detail);
    }

    /** A failure that concerns a known account; the event names it as its target. */
    public static SignInFailure of(SignInError error, Subject subject, String detail) {
        return new SignInFailure(error, true, Optional.of(subject), detail);
    }

    /** A failure kept in the log only. */
    public static SignInFailure logOnly(SignInError error, String detail) {
        return new SignInFailure(error, false, Optional.empty(), detail);
    }

    public SignInError error() {
        return error;
    }

    /** The code the browser and the event carry. */
    public String code() {
        return error.code();
    }

    public boolean recorded() {
        return recorded;
    }

    public Optional<Subject> subject() {
        return subject;
    }
}
