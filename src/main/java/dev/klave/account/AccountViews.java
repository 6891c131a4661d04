package dev.klave.account;

import java.time.Instant;
import java.util.Optional;

/** How accounts look in API answers (snake_case by the API's JSON mapper). */
public final class AccountViews {
    private AccountViews() {}

    public record ForgeView(long id, String login) {}

    /** An account as administrators see it in {@code /api/subjects}. */
    public record SubjectView(String id, String login, String kind, String displayName, Optional<String> email,
            boolean isAdmin, boolean enabled, Optional<Instant> disabledAt, boolean breakGlass, boolean hasPassword,
            Optional<ForgeView> forge, Instant createdAt) {}

    /** A new person, with the invitation link shown this once. */
    public record CreatedPersonView(String id, String login, String kind, String displayName, Optional<String> email,
            boolean isAdmin, boolean enabled, boolean breakGlass, String inviteLink, Instant inviteExpiresAt) {}

    /** One's own account ({@code GET /api/me}, and the answer of every sign-in). */
    public record MeView(String id, String login, String kind, String displayName, Optional<String> email,
            boolean isAdmin, boolean breakGlass, boolean hasPassword, boolean canUsePassword,
            Optional<ForgeView> forge) {}

    public record ResetLinkView(String resetLink, Instant expiresAt) {}

    public static SubjectView subject(Subject subject) {
        return new SubjectView(subject.id().value(), subject.login().value(), subject.kind().code(),
                subject.displayName(), subject.email(), subject.admin(), subject.enabled(), subject.disabledAt(),
                subject.breakGlass(), subject.passwordHash().isPresent(), forge(subject), subject.createdAt());
    }

    public static CreatedPersonView created(IssuedLink invitation) {
        Subject subject = invitation.subject();
        return new CreatedPersonView(subject.id().value(), subject.login().value(), subject.kind().code(),
                subject.displayName(), subject.email(), subject.admin(), subject.enabled(), subject.breakGlass(),
                invitation.link(), invitation.expiresAt());
    }

    public static MeView me(Subject subject, boolean canUsePassword) {
        return new MeView(subject.id().value(), subject.login().value(), subject.kind().code(), subject.displayName(),
                subject.email(), subject.admin(), subject.breakGlass(), subject.passwordHash().isPresent(),
                canUsePassword, forge(subject));
    }

    private static Optional<ForgeView> forge(Subject subject) {
        return subject.forgeLink().map(link -> new ForgeView(link.forgeId(), link.forgeLogin()));
    }
}
