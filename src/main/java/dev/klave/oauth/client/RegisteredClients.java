package dev.klave.oauth.client;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.util.Map;

/**
 * What administrators see and do of the dynamically registered clients (spec 3 §8: at most
 * {@value Registration#MAX_CLIENTS}): how many there are, and a purge of those that never
 * completed a login — anyone may register, so a flood of registrations nobody finishes is purged
 * here at once rather than waiting a day for {@link Registration}'s sweep.
 */
public final class RegisteredClients {
    private final Transactions transactions;
    private final ClientStore clients;
    private final ControlEvents events;
    private final Clock clock;

    public RegisteredClients(Transactions transactions, ClientStore clients, ControlEvents events, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.clients = requireNonNull(clients, "clients is null");
        this.events = requireNonNull(events, "events is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public int count() {
        return clients.countRegistered();
    }

    /** Deletes every registered client that never completed a login; returns how many, recorded as an event. */
    public int purgeNeverSignedIn(Principal by) {
        return transactions.inTransaction(() -> {
            int deleted = clients.deleteNeverSignedInBefore(clock.instant().plusSeconds(1));
            events.event(EventType.OAUTH_CLIENTS_PURGE).actor(by).details(Map.of("deleted", deleted)).record();
            return deleted;
        });
    }
}
