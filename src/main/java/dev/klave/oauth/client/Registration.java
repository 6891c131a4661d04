package dev.klave.oauth.client;

import static java.util.Objects.requireNonNull;

import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.limits.PerAddressLimit;
import dev.klave.messages.Message;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Dynamic client registration (RFC 7591 §3, spec 3 §4 "Clients"): public clients only, at most 20
 * registrations per minute from one address and {@value #MAX_CLIENTS} registered clients in all
 * (spec 3 §8).
 *
 * <p>Unused clients are swept here, not by a thread of their own: each registration first deletes
 * the clients unused for 30 days, and those that never completed a login a day after they
 * registered, at most once an hour on this replica. So the cap counts only clients in use — anyone
 * may register, and registrations nobody finishes stop filling it within a day — and a replica that
 * registers nobody does no work; a client left stale meanwhile can do nothing but be used again,
 * which it could the day before. Administrators purge the never-used ones at once
 * ({@link RegisteredClients}).
 */
public final class Registration {
    /** Spec 3 §8. */
    public static final int MAX_CLIENTS = 10_000;
    /** Spec 3 §8: "unused registered client deleted after 30 days". */
    public static final Duration UNUSED_LIFETIME = Duration.ofDays(30);
    /** A registered client that completed no login within a day of registering is swept. */
    public static final Duration ABANDONED_AFTER = Duration.ofDays(1);
    private static final Duration SWEEP_EVERY = Duration.ofHours(1);
    private static final String ID_PREFIX = "oc_";

    private final ClientStore clients;
    private final PerAddressLimit perAddress;
    private final SecretTokenGenerator random;
    private final int maxClients;
    private final Clock clock;
    private final AtomicReference<Instant> lastSweep = new AtomicReference<>(Instant.MIN);

    public Registration(ClientStore clients, PerAddressLimit perAddress, SecretTokenGenerator random, Clock clock) {
        this(clients, perAddress, random, MAX_CLIENTS, clock);
    }

    /** With another cap than spec 3's, for tests that cannot register 10 000 clients. */
    Registration(ClientStore clients, PerAddressLimit perAddress, SecretTokenGenerator random, int maxClients,
            Clock clock) {
        this.clients = requireNonNull(clients, "clients is null");
        this.perAddress = requireNonNull(perAddress, "perAddress is null");
        this.random = requireNonNull(random, "random is null");
        this.clock = requireNonNull(clock, "clock is null");
        if (maxClients <= 0) {
            throw new IllegalArgumentException("maxClients must be positive");
        }
        this.maxClients = maxClients;
    }

    /**
     * Registers the client {@code body} describes, from {@code address}.
     *
     * @throws dev.klave.messages.Refusal past the address's limit, for metadata refused, or when the
     *     registered clients are at their cap
     */
    public OAuthClient register(byte[] body, InetAddress address) {
        perAddress.count(address);
        ClientMetadata metadata = RegistrationRequest.parse(body);
        Instant now = clock.instant();
        sweepIfDue(now);
        OAuthClient client = new OAuthClient(ID_PREFIX + random.randomId(), ClientKind.REGISTERED, metadata, now, now);
        if (!clients.createWithin(client, maxClients)) {
            throw Message.OAUTH_CLIENTS_FULL.refusal(maxClients);
        }
        return client;
    }

    private void sweepIfDue(Instant now) {
        Instant last = lastSweep.get();
        if (last.plus(SWEEP_EVERY).isAfter(now) || !lastSweep.compareAndSet(last, now)) {
            return;
        }
        clients.deleteUnusedSince(now.minus(UNUSED_LIFETIME));
        clients.deleteNeverSignedInBefore(now.minus(ABANDONED_AFTER));
    }
}
