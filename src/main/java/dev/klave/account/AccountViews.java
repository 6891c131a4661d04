package dev.klave.account;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** How accounts look in API answers (snake_case by the API's JSON mapper). */
public final class AccountViews {
    private final ExternalIdentityStore identities;
    private final SessionStore sessions;
    private final LinkTokenStore links;
    private final LastAdminRule lastAdmin;
    private final Function<Collection<SubjectId>, Map<SubjectId, Integer>> activeGrants;
    private final Function<Collection<SubjectId>, Map<SubjectId, Integer>> activeCredentials;
    private final java.time.Clock clock;

    /**
     * @param activeGrants how many active grants each of some subjects holds (from {@code access}, wired at the root)
     * @param activeCredentials how many valid credentials each of some subjects holds (from {@code credential})
     */
    public AccountViews(ExternalIdentityStore identities, SessionStore sessions, LinkTokenStore links,
            LastAdminRule lastAdmin, Function<Collection<SubjectId>, Map<SubjectId, Integer>> activeGrants,
            Function<Collection<SubjectId>, Map<SubjectId, Integer>> activeCredentials,
            java.time.Clock clock) {
        this.identities = requireNonNull(identities, "identities is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.links = requireNonNull(links, "links is null");
        this.lastAdmin = requireNonNull(lastAdmin, "lastAdmin is null");
        this.activeGrants = requireNonNull(activeGrants, "activeGrants is null");
        this.activeCredentials = requireNonNull(activeCredentials, "activeCredentials is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** What the administrators' list shows beside each account, read once for the whole page. */
    private record Extras(Map<SubjectId, Instant> lastSignIn, Map<SubjectId, Instant> pendingUntil,
            Map<SubjectId, Integer> grants, Map<SubjectId, Integer> credentials, Optional<SubjectId> lastAdmin) {}

    private Extras extras(Collection<SubjectId> shown) {
        return new Extras(sessions.lastOpened(shown), links.pendingUntil(shown, clock.instant()),
                activeGrants.apply(shown),
                activeCredentials.apply(shown),
                lastAdmin.onlyAdminAbleToSignIn());
    }

    public record ForgeView(long id, String login) {}

    /** An account's OIDC identity (spec 2 §2: issuer, claim name, value, the provider's e-mail). */
    public record OidcView(String issuer, String claim, String subject, Optional<String> email) {}

    /**
     * An account as administrators see it in {@code /api/subjects}.
     *
     * @param writesNeedApproval a bot's setting (spec 3 §4); a person's answer has no such field
     */
    public record SubjectView(String id, String login, String kind, String displayName, Optional<String> email,
            boolean isAdmin, boolean enabled, Optional<Instant> disabledAt, boolean breakGlass, boolean hasPassword,
            Optional<ForgeView> forge, Optional<OidcView> oidc, Instant createdAt, Optional<Instant> lastSignInAt,
            Optional<Instant> invitationExpiresAt, int activeGrants, int activeCredentials, boolean lastAdmin,
            @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Boolean> writesNeedApproval) {}

    /** A new person, with the invitation link shown this once. */
    public record CreatedPersonView(String id, String login, String kind, String displayName, Optional<String> email,
            boolean isAdmin, boolean enabled, boolean breakGlass, String inviteLink, Instant inviteExpiresAt) {}

    /** One's own account ({@code GET /api/me}, and the answer of every sign-in). */
    public record MeView(String id, String login, String kind, String displayName, Optional<String> email,
            boolean isAdmin, boolean breakGlass, boolean hasPassword, boolean canUsePassword,
            Optional<ForgeView> forge, Optional<OidcView> oidc, Optional<Instant> sessionExpiresAt) {}

    public record ResetLinkView(String resetLink, Instant expiresAt) {}

    public SubjectView subject(Subject subject) {
        return subject(subject, identities.listFor(subject.id()), extras(List.of(subject.id())));
    }

    /**
     * A page of accounts (or all of them): their identities, last sign-ins, pending links and
     * counts read for these accounts only, one query each, never one per account.
     */
    public List<SubjectView> subjects(List<Subject> subjects) {
        List<SubjectId> shown = subjects.stream().map(Subject::id).toList();
        Map<SubjectId, List<ExternalIdentity>> linked = new java.util.HashMap<>();
        identities.listFor(shown).forEach(identity -> linked.computeIfAbsent(identity.subjectId(),
                ignored -> new java.util.ArrayList<>()).add(identity));
        Extras extras = extras(shown);
        return subjects.stream().map(subject -> subject(subject, linked.getOrDefault(subject.id(), List.of()), extras))
                .toList();
    }

    private static SubjectView subject(Subject subject, List<ExternalIdentity> linked, Extras extras) {
        return new SubjectView(subject.id().value(), subject.login().value(), subject.kind().code(),
                subject.displayName(), subject.email(), subject.admin(), subject.enabled(), subject.disabledAt(),
                subject.breakGlass(), subject.passwordHash().isPresent(), forge(linked), oidc(linked),
                subject.createdAt(), Optional.ofNullable(extras.lastSignIn().get(subject.id())),
                Optional.ofNullable(extras.pendingUntil().get(subject.id())),
                // Spec 1 §3: a disabled subject's grants are kept but do not count.
                subject.enabled() ? extras.grants().getOrDefault(subject.id(), 0) : 0,
                extras.credentials().getOrDefault(subject.id(), 0),
                extras.lastAdmin().map(subject.id()::equals).orElse(false),
                subject.kind() == SubjectKind.BOT ? Optional.of(subject.writesNeedApproval()) : Optional.empty());
    }

    public static CreatedPersonView created(IssuedLink invitation) {
        Subject subject = invitation.subject();
        return new CreatedPersonView(subject.id().value(), subject.login().value(), subject.kind().code(),
                subject.displayName(), subject.email(), subject.admin(), subject.enabled(), subject.breakGlass(),
                invitation.link(), invitation.expiresAt());
    }

    public MeView me(Subject subject, boolean canUsePassword) {
        return me(subject, canUsePassword, Optional.empty());
    }

    /** @param sessionExpiresAt when the session asking ends (12 h after sign-in), shown to the person */
    public MeView me(Subject subject, boolean canUsePassword, Optional<Instant> sessionExpiresAt) {
        List<ExternalIdentity> linked = identities.listFor(subject.id());
        return new MeView(subject.id().value(), subject.login().value(), subject.kind().code(), subject.displayName(),
                subject.email(), subject.admin(), subject.breakGlass(), subject.passwordHash().isPresent(),
                canUsePassword, forge(linked), oidc(linked), sessionExpiresAt);
    }

    private static Optional<ForgeView> forge(List<ExternalIdentity> linked) {
        return linked.stream().filter(identity -> identity.key().provider() == IdentityProvider.FORGE).findFirst()
                .map(AccountViews::forge);
    }

    private static Optional<OidcView> oidc(List<ExternalIdentity> linked) {
        return linked.stream().filter(identity -> identity.key().provider() == IdentityProvider.OIDC).findFirst()
                .map(identity -> new OidcView(identity.key().issuer(), identity.key().claim(), identity.key().value(),
                        identity.email()));
    }

    private static ForgeView forge(ExternalIdentity identity) {
        return new ForgeView(identity.key().forgeId(), identity.display().orElse(""));
    }
}
