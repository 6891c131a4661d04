package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.account.EmailKey;
import dev.klave.account.ExternalIdentity;
import dev.klave.account.Subject;
import dev.klave.account.SubjectKind;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.Via;
import dev.klave.messages.Untrusted;
import dev.klave.storage.AlreadyExistsException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the three external flows share about a provider's identity: whether it opens another
 * account, linking it inside a transaction, what events and failures say of it (spec 2 §5, §6).
 */
final class Linking {
    private final SignInMethod method;
    private final SignInParts parts;

    Linking(SignInMethod method, SignInParts parts) {
        this.method = requireNonNull(method, "method is null");
        this.parts = requireNonNull(parts, "parts is null");
    }

    SignInMethod method() {
        return method;
    }

    Via via() {
        return method.provider().via();
    }

    /** Refuses an identity that already opens another account than {@code subject}. */
    void refuseTaken(SignInMethod.ProviderIdentity identity, Subject subject) throws SignInFailure {
        Optional<ExternalIdentity> holder = parts.identities().find(identity.key());
        if (holder.isPresent() && !holder.get().subjectId().equals(subject.id())) {
            throw SignInFailure.of(method.takenCode(), subject, describe(identity) + " is linked to another account");
        }
    }

    /** Inside a transaction; a concurrent link of the same identity elsewhere loses here. */
    void link(SignInMethod.ProviderIdentity identity, Subject subject) {
        if (subject.kind() != SubjectKind.PERSON) {
            throw new IllegalStateException("bots are never linked");
        }
        Optional<ExternalIdentity> holder = parts.identities().find(identity.key());
        if (holder.isPresent() && !holder.get().subjectId().equals(subject.id())) {
            throw new Outcome(SignInFailure.of(method.takenCode(), subject, describe(identity) + " was linked meanwhile"));
        }
        try {
            parts.identities().link(new ExternalIdentity(subject.id(), identity.key(), identity.display(),
                    identity.email(), parts.clock().instant()));
        } catch (AlreadyExistsException e) {
            throw new Outcome(SignInFailure.of(method.takenCode(), subject, describe(identity) + " was linked meanwhile"));
        }
    }

    /**
     * Spec 2 §6: {@code link.complete} says whether the provider's address differs from the
     * account's (compared as e-mail keys); providers that give no address (the forge) say nothing.
     */
    static ControlEvents.Draft withEmailMismatch(ControlEvents.Draft event, SignInMethod.ProviderIdentity identity,
            Subject subject) {
        identity.email().ifPresent(email -> event.detail("email_mismatch", EmailKey.of(email).isEmpty()
                || !subject.email().flatMap(EmailKey::of).equals(EmailKey.of(email))));
        return event;
    }

    /** What a failure's event names of the person at the provider (spec 2 §6): e-mail and subject. */
    static Map<String, Object> identityDetails(SignInMethod.ProviderIdentity identity) {
        Map<String, Object> details = new LinkedHashMap<>();
        identity.email().ifPresent(email -> details.put("email", email));
        if (identity.details().containsKey("subject")) {
            details.put("subject", identity.details().get("subject"));
        }
        return details;
    }

    static String describe(SignInMethod.ProviderIdentity identity) {
        return "the " + identity.key().provider().code() + " identity " + Untrusted.text(identity.key().value())
                + identity.display().map(name -> " (" + Untrusted.text(name) + ")").orElse("");
    }

    /** Runs {@code work} in one transaction; an {@link Outcome} thrown in it rolls back and becomes its failure. */
    <T> T inTransaction(Supplier<T> work) throws SignInFailure {
        try {
            return parts.transactions().inTransaction(work);
        } catch (Outcome outcome) {
            throw outcome.failure;
        }
    }

    /** Carries a {@link SignInFailure} out of a transaction, rolling it back. */
    static final class Outcome extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient SignInFailure failure;

        Outcome(SignInFailure failure) {
            super(failure.code(), null, false, false);
            this.failure = failure;
        }
    }
}
