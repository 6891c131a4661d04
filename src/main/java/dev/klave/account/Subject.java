package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.ControlEvent;
import dev.klave.audit.EventParty;
import java.time.Instant;
import java.util.Optional;

/**
 * A person or a bot (spec 1 §2 "Subject"). Immutable; changes produce a new value through the
 * {@code with…} methods and are stored by {@link SubjectStore#update}.
 *
 * @param writesNeedApproval whether an agent's writes with this bot's credentials wait for a
 *     person's approval (spec 3 §4 "Write approval flow"); only a bot has it
 */
public record Subject(
        SubjectId id,
        Login login,
        SubjectKind kind,
        String displayName,
        Optional<String> email,
        boolean admin,
        boolean breakGlass,
        Optional<Instant> disabledAt,
        Optional<String> passwordHash,
        Instant createdAt,
        boolean writesNeedApproval) implements EventParty {
    public Subject {
        requireNonNull(id, "id is null");
        requireNonNull(login, "login is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(displayName, "displayName is null");
        requireNonNull(email, "email is null");
        requireNonNull(disabledAt, "disabledAt is null");
        requireNonNull(passwordHash, "passwordHash is null");
        requireNonNull(createdAt, "createdAt is null");
        if (kind == SubjectKind.BOT && (email.isPresent() || passwordHash.isPresent())) {
            // Spec 1 §2: bots have no password and no e-mail (nor external identities, see
            // ExternalIdentities).
            throw new IllegalArgumentException("a bot has no e-mail or password");
        }
        if (kind != SubjectKind.BOT && writesNeedApproval) {
            // Spec 3 §4: a person's agents ask for approval through their session, not their account.
            throw new IllegalArgumentException("only a bot's writes can need approval");
        }
    }

    /** A new, enabled person with no password yet. */
    public static Subject newPerson(Login login, String displayName, Optional<String> email, boolean admin,
            boolean breakGlass, Instant now) {
        return new Subject(SubjectId.random(), login, SubjectKind.PERSON, displayName, email, admin, breakGlass,
                Optional.empty(), Optional.empty(), now, false);
    }

    public boolean enabled() {
        return disabledAt.isEmpty();
    }

    public Subject withDisplayName(String value) {
        return new Subject(id, login, kind, value, email, admin, breakGlass, disabledAt, passwordHash,
                createdAt, writesNeedApproval);
    }

    public Subject withEmail(Optional<String> value) {
        return new Subject(id, login, kind, displayName, value, admin, breakGlass, disabledAt, passwordHash,
                createdAt, writesNeedApproval);
    }

    public Subject withAdmin(boolean value) {
        return new Subject(id, login, kind, displayName, email, value, breakGlass, disabledAt, passwordHash,
                createdAt, writesNeedApproval);
    }

    public Subject withPasswordHash(Optional<String> value) {
        return new Subject(id, login, kind, displayName, email, admin, breakGlass, disabledAt, value,
                createdAt, writesNeedApproval);
    }

    public Subject withDisabledAt(Optional<Instant> value) {
        return new Subject(id, login, kind, displayName, email, admin, breakGlass, value, passwordHash,
                createdAt, writesNeedApproval);
    }

    public Subject withBreakGlass(boolean value) {
        return new Subject(id, login, kind, displayName, email, admin, value, disabledAt, passwordHash,
                createdAt, writesNeedApproval);
    }

    public Subject withWritesNeedApproval(boolean value) {
        return new Subject(id, login, kind, displayName, email, admin, breakGlass, disabledAt, passwordHash,
                createdAt, value);
    }

    @Override
    public ControlEvent.SubjectRef eventRef() {
        return new ControlEvent.SubjectRef(id.value(), login.value());
    }
}
