package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Klave must always keep an administrator who can sign in (spec 1 §5 "Break-glass"). This is the
 * one place that decides who can: with passwords only, an enabled administrator with a password;
 * with forge or OIDC sign-in, an enabled administrator who is linked or break-glass.
 */
public final class LastAdminRule {
    private final SubjectStore subjects;
    private final SignInMode mode;

    public LastAdminRule(SubjectStore subjects, SignInMode mode) {
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.mode = requireNonNull(mode, "mode is null");
    }

    public boolean canSignInAsAdmin(Subject subject) {
        if (!subject.enabled() || !subject.admin() || subject.kind() != SubjectKind.PERSON) {
            return false;
        }
        return switch (mode) {
            case PASSWORD -> subject.passwordHash().isPresent();
            case EXTERNAL -> subject.forgeLink().isPresent() || subject.breakGlass();
        };
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
        List<Subject> admins = subjects.lockAdmins();
        boolean another = admins.stream()
                .filter(admin -> !admin.id().equals(current.id()))
                .anyMatch(this::canSignInAsAdmin);
        if (!another) {
            throw Message.LAST_ADMIN.refusal();
        }
        return changed;
    }
}
