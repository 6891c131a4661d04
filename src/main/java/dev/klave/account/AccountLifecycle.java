package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.audit.Via;
import dev.klave.messages.Message;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Disabling, enabling and signing out accounts (spec 1 §3 "Subject"). Disable is one transaction:
 * sessions closed, pending links revoked, every {@link DisableHook} run, the account marked. Enable
 * restores none of that.
 */
public final class AccountLifecycle {
    private final Transactions transactions;
    private final SubjectStore subjects;
    private final ExternalIdentityStore identities;
    private final LinkTokenStore links;
    private final Sessions sessions;
    private final LastAdminRule lastAdmin;
    private final ControlEvents events;
    private final List<DisableHook> hooks;
    private final AccessEnds ends;
    private final Consumer<SubjectId> changed;
    private final Clock clock;

    /**
     * @param hooks run inside the disable transaction
     * @param changed runs after an enable or disable is stored (the reconciler follows it)
     */
    public AccountLifecycle(Transactions transactions, SubjectStore subjects, ExternalIdentityStore identities,
            LinkTokenStore links, Sessions sessions, LastAdminRule lastAdmin, ControlEvents events,
            List<DisableHook> hooks, AccessEnds ends, Consumer<SubjectId> changed, Clock clock) {
        this.ends = requireNonNull(ends, "ends is null");
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.identities = requireNonNull(identities, "identities is null");
        this.links = requireNonNull(links, "links is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.lastAdmin = requireNonNull(lastAdmin, "lastAdmin is null");
        this.events = requireNonNull(events, "events is null");
        this.hooks = List.copyOf(requireNonNull(hooks, "hooks is null"));
        this.changed = requireNonNull(changed, "changed is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Disables the account; disabling a disabled account changes nothing.
     *
     * @param via {@link Via#FORGE_SYNC} or {@link Via#FORGE_WEBHOOK} when no person acted
     * @throws dev.klave.messages.Refusal {@code LAST_ADMIN} for the last administrator able to sign in
     */
    public Subject disable(SubjectId id, Optional<Principal> actor, Optional<Via> via) {
        Subject result = transactions.inTransaction(() -> {
            Subject current = subjects.findById(id).orElseThrow(Message.USER_NOT_FOUND::refusal);
            return current.enabled() ? disableNow(current, actor, via) : current;
        });
        changed.accept(id);
        return result;
    }

    /** Inside a transaction: spec 1 §3, everything a disable does at once. */
    private Subject disableNow(Subject current, Optional<Principal> actor, Optional<Via> via) {
        Instant now = clock.instant();
        SubjectId id = current.id();
        Subject disabled = lastAdmin.check(current, subject -> subject.withDisabledAt(Optional.of(now)));
        sessions.closeAll(id);
        links.revokePending(id, now);
        hooks.forEach(hook -> hook.onDisable(id, now));
        Subject stored = subjects.update(id, ignored -> disabled);
        ControlEvents.Draft event = events.event(EventType.USER_DISABLE).actor(actor).target(stored);
        via.ifPresent(event::via);
        event.record();
        return stored;
    }

    /** What an automatic disable did (spec 1 §5 "Automatic offboarding"). */
    public enum AutomaticDisable {
        DISABLED,
        ALREADY_DISABLED,
        /** The identity is no longer linked to the account that was observed: nobody disabled. */
        NOT_LINKED,
        /** The account is the last administrator able to sign in: nobody disabled. */
        LAST_ADMIN
    }

    /**
     * Disables the account of {@code observed} with no actor, {@code via} the forge sync or
     * webhook, only if that very link still holds: an account relinked since it was observed is
     * left alone. Never disables the last administrator able to sign in.
     */
    public AutomaticDisable disableLinked(ExternalIdentity observed, Via via) {
        SubjectId expected = observed.subjectId();
        AutomaticDisable result = transactions.inTransaction(() -> {
            // The same link the caller saw: same account, linked at the same moment. An account
            // unlinked and linked again since (even to the same forge id) is not judged by it.
            boolean linked = identities.find(observed.key())
                    .map(identity -> identity.subjectId().equals(expected) && identity.linkedAt().equals(observed.linkedAt()))
                    .orElse(false);
            Optional<Subject> current = linked ? subjects.findById(expected) : Optional.empty();
            if (current.isEmpty()) {
                return AutomaticDisable.NOT_LINKED;
            }
            if (!current.get().enabled()) {
                return AutomaticDisable.ALREADY_DISABLED;
            }
            try {
                disableNow(current.get(), Optional.empty(), Optional.of(via));
            } catch (dev.klave.messages.Refusal refusal) {
                if (refusal.kind() != Message.LAST_ADMIN) {
                    throw refusal;
                }
                // Refused before anything was written, so the transaction commits nothing.
                return AutomaticDisable.LAST_ADMIN;
            }
            return AutomaticDisable.DISABLED;
        });
        if (result == AutomaticDisable.DISABLED) {
            changed.accept(expected);
        }
        return result;
    }

    /**
     * Unlinks the account's identity at {@code provider} and closes its sessions (spec 1 §3, §4
     * {@code DELETE /api/subjects/{id}/forge}); an account without one is left as it is.
     *
     * @throws dev.klave.messages.Refusal {@code USER_NOT_FOUND}; {@code LAST_ADMIN} when it would
     *     leave no administrator able to sign in
     */
    public Subject unlink(SubjectId id, IdentityProvider provider, Principal actor) {
        return transactions.inTransaction(() -> {
            Subject subject = subjects.findById(id).orElseThrow(Message.USER_NOT_FOUND::refusal);
            if (identities.findFor(id, provider).isEmpty()) {
                return subject;
            }
            lastAdmin.checkUnlink(subject, provider);
            identities.unlink(id, provider);
            int closed = sessions.closeAll(id);
            // Spec 3 §4 "Agent login": the agent sessions consented through that identity end too.
            ends.identityUnlinked(id, provider, clock.instant());
            events.event(provider.unlinkEvent()).actor(actor).target(subject)
                    .details(java.util.Map.of("sessions_closed", String.valueOf(closed))).record();
            return subject;
        });
    }

    /** Enables the account again; its grants count again, nothing revoked comes back. */
    public Subject enable(SubjectId id, Principal actor) {
        Subject result = transactions.inTransaction(() -> {
            Subject current = subjects.findById(id).orElseThrow(Message.USER_NOT_FOUND::refusal);
            if (current.enabled()) {
                return current;
            }
            Subject stored = subjects.update(id, subject -> subject.withDisabledAt(Optional.empty()));
            events.event(EventType.USER_ENABLE).actor(actor).target(stored).record();
            return stored;
        });
        changed.accept(id);
        return result;
    }

    /** Closes every session of the person (the administrator's "close sessions"). */
    public void signOutEverywhere(SubjectId id, Principal actor) {
        transactions.inTransaction(() -> {
            Subject subject = subjects.findById(id).orElseThrow(Message.USER_NOT_FOUND::refusal);
            int closed = sessions.closeAll(id);
            events.event(EventType.USER_LOGOUT).actor(actor).target(subject)
                    .details(java.util.Map.of("sessions_closed", String.valueOf(closed))).record();
            return null;
        });
    }
}
