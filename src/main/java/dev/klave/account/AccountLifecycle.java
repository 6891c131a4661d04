package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.ControlEvents;
import dev.klave.messages.Message;
import dev.klave.store.Transactions;
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
    private final LinkTokenStore links;
    private final Sessions sessions;
    private final LastAdminRule lastAdmin;
    private final ControlEvents events;
    private final List<DisableHook> hooks;
    private final Consumer<SubjectId> changed;
    private final Clock clock;

    /**
     * @param hooks run inside the disable transaction
     * @param changed runs after an enable or disable is stored (the reconciler follows it)
     */
    public AccountLifecycle(Transactions transactions, SubjectStore subjects, LinkTokenStore links, Sessions sessions,
            LastAdminRule lastAdmin, ControlEvents events, List<DisableHook> hooks, Consumer<SubjectId> changed,
            Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
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
     * @param via {@code forge-sync} or {@code forge-webhook} when no person acted
     * @throws dev.klave.messages.Refusal {@code LAST_ADMIN} for the last administrator able to sign in
     */
    public Subject disable(SubjectId id, Optional<Principal> actor, Optional<String> via) {
        Instant now = clock.instant();
        Subject result = transactions.inTransaction(() -> {
            Subject current = subjects.findById(id).orElseThrow(Message.USER_NOT_FOUND::refusal);
            if (!current.enabled()) {
                return current;
            }
            Subject disabled = lastAdmin.check(current, subject -> subject.withDisabledAt(Optional.of(now)));
            sessions.closeAll(id);
            links.revokePending(id, now);
            hooks.forEach(hook -> hook.onDisable(id, now));
            Subject stored = subjects.update(id, ignored -> disabled);
            ControlEvents.Draft event = events.event("user.disable").actor(actor).target(stored);
            via.ifPresent(event::via);
            event.record();
            return stored;
        });
        changed.accept(id);
        return result;
    }

    /** Enables the account again; its grants count again, nothing revoked comes back. */
    public Subject enable(SubjectId id, Principal actor) {
        Subject result = transactions.inTransaction(() -> {
            Subject current = subjects.findById(id).orElseThrow(Message.USER_NOT_FOUND::refusal);
            if (current.enabled()) {
                return current;
            }
            Subject stored = subjects.update(id, subject -> subject.withDisabledAt(Optional.empty()));
            events.event("user.enable").actor(actor).target(stored).record();
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
            events.event("user.logout").actor(actor).target(subject)
                    .details(java.util.Map.of("sessions_closed", String.valueOf(closed))).record();
            return null;
        });
    }
}
