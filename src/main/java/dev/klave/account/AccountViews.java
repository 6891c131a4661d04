package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** How accounts look in API answers (snake_case by the API's JSON mapper). */
public final class AccountViews {
    private final ExternalIdentityStore identities;

    public AccountViews(ExternalIdentityStore identities) {
        this.identities = requireNonNull(identities, "identities is null");
    }

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

    public SubjectView subject(Subject subject) {
        return subject(subject, identities.findFor(subject.id(), IdentityProvider.FORGE));
    }

    /** Every account, reading the forge links in one query rather than one per account. */
    public List<SubjectView> subjects(List<Subject> subjects) {
        Map<SubjectId, ExternalIdentity> forge = identities.list(IdentityProvider.FORGE).stream()
                .collect(Collectors.toMap(ExternalIdentity::subjectId, Function.identity()));
        return subjects.stream().map(subject -> subject(subject, Optional.ofNullable(forge.get(subject.id())))).toList();
    }

    private static SubjectView subject(Subject subject, Optional<ExternalIdentity> forge) {
        return new SubjectView(subject.id().value(), subject.login().value(), subject.kind().code(),
                subject.displayName(), subject.email(), subject.admin(), subject.enabled(), subject.disabledAt(),
                subject.breakGlass(), subject.passwordHash().isPresent(), forge.map(AccountViews::forge), subject.createdAt());
    }

    public static CreatedPersonView created(IssuedLink invitation) {
        Subject subject = invitation.subject();
        return new CreatedPersonView(subject.id().value(), subject.login().value(), subject.kind().code(),
                subject.displayName(), subject.email(), subject.admin(), subject.enabled(), subject.breakGlass(),
                invitation.link(), invitation.expiresAt());
    }

    public MeView me(Subject subject, boolean canUsePassword) {
        return new MeView(subject.id().value(), subject.login().value(), subject.kind().code(), subject.displayName(),
                subject.email(), subject.admin(), subject.breakGlass(), subject.passwordHash().isPresent(),
                canUsePassword, identities.findFor(subject.id(), IdentityProvider.FORGE).map(AccountViews::forge));
    }

    private static ForgeView forge(ExternalIdentity identity) {
        return new ForgeView(identity.key().forgeId(), identity.display().orElse(""));
    }
}
