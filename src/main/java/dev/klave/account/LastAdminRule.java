package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Klave must always keep an administrator who can sign in (spec 1 §5 "Break-glass"). This is the
 * one place that decides who can: with passwords only, an enabled administrator with a password;
 * with forge or OIDC sign-in, an enabled administrator who is break-glass with a password, or holds
 * an identity at a provider that is on (asked of the {@link ExternalIdentityStore}).
 */
public final class LastAdminRule {
    private final SubjectStore subjects;
    private final ExternalIdentityStore identities;
    private final SignInMode mode;

    public LastAdminRule(SubjectStore subjects, ExternalIdentityStore identities, SignInMode mode) {
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.identities = requireNonNull(identities, "identities is null");
        this.mode = requireNonNull(mode, "mode is null");
    }

    public boolean canSignInAsAdmin(Subject subject) {
        return canSignInAsAdmin(subject, Optional.empty());
    }

    /** As {@link #canSignInAsAdmin(Subject)}, counting {@code without} as already unlinked. */
    private boolean canSignInAsAdmin(Subject subject, Optional<IdentityProvider> without) {
        if (!subject.enabled() || !subject.admin() || subject.kind() != SubjectKind.PERSON) {
            return false;
        }
        if (!mode.external()) {
            return subject.passwordHash().isPresent();
        }
        // A break-glass account signs in with its password (spec 1 §5 "Break-glass"): without one
        // (an invitation never used) it cannot sign in at all.
        boolean breakGlass = subject.breakGlass() && subject.passwordHash().isPresent();
        return breakGlass || identities.listFor(subject.id()).stream()
                .map(identity -> identity.key().provider())
                .filter(provider -> without.map(gone -> gone != provider).orElse(true))
                .anyMatch(mode::uses);
    }

    /**
     * The one administrator able to sign in, when there is exactly one: the interface offers no
     * "disable" or "unlink" that this rule would refuse.
     */
    public Optional<SubjectId> onlyAdminAbleToSignIn() {
        List<Subject> able = enabledAdministrators().stream().filter(this::canSignInAsAdmin).toList();
        return able.size() == 1 ? Optional.of(able.getFirst().id()) : Optional.empty();
    }

    /** Whether some administrator can sign in now (logged as an error at start when none can). */
    public boolean anyAdminCanSignIn() {
        return enabledAdministrators().stream().anyMatch(this::canSignInAsAdmin);
    }

    /** The only subjects the rule is about, read as such (each page of accounts asks), not every subject. */
    private List<Subject> enabledAdministrators() {
        return subjects.list(new SubjectFilter(Optional.empty(), Optional.of(SubjectKind.PERSON), Optional.of(true),
                true), Optional.empty(), Integer.MAX_VALUE);
    }

    /**
     * Refuses to unlink {@code subject}'s identity at {@code provider} when that would leave no
     * administrator able to sign in. Call inside the transaction that unlinks.
     *
     * @throws dev.klave.messages.Refusal {@code LAST_ADMIN} (409)
     */
    public void checkUnlink(Subject subject, IdentityProvider provider) {
        if (canSignInAsAdmin(subject) && !canSignInAsAdmin(subject, Optional.of(provider))) {
            requireAnother(subject);
        }
    }

    /**
     * Applies {@code change} to the subject unless it would leave no administrator able to sign
     * in. Call inside the transaction that stores the change.
     *
     * @throws dev.klave.messages.Refusal {@code LAST_ADMIN} (409)
     */
    public Subject check(Subject current, UnaryOperator<Subject> change) {
        Subject changed = change.apply(current);
        if (!canSignInAsAdmin(current) || canSignInAsAdmin(changed)) {
            return changed;
        }
        requireAnother(current);
        return changed;
    }

    /** Locks the administrators and refuses unless one besides {@code leaving} can sign in. */
    private void requireAnother(Subject leaving) {
        List<Subject> admins = subjects.lockAdmins();
        boolean another = admins.stream()
                .filter(admin -> !admin.id().equals(leaving.id()))
                .anyMatch(this::canSignInAsAdmin);
        if (!another) {
            throw Message.LAST_ADMIN.refusal();
        }
    }
}
