package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.crypto.TokenHash;
import dev.klave.messages.Message;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one place a token presented at an edge becomes a {@link Bearer} (issue 52): the proxy's, the
 * agent endpoint's and the access API's, each accepting what its {@link Edge} says. Every way in
 * resolves its bearer here, once, at its edge; nothing downstream sees the token.
 *
 * <p>A resolution is kept in memory while the shared access generation has not moved (a
 * revocation, a disable, an ended session move it on every replica) and the bearer has not
 * expired, so a proxied request whose token was seen costs no query to be resolved. It is dropped
 * as soon as a newer generation is seen ({@link #observed}), which the gateway learns from every
 * audit commit: a kept resolution is confirmed by the same reading that confirms a kept check.
 */
public final class BearerResolver {
    /** A bound on kept resolutions, not an LRU: forgetting costs only a lookup. */
    private static final int KEPT_LIMIT = 10_000;

    /** Which way in presents a token, and so which bearers it accepts. */
    public enum Edge {
        /** The proxy (spec 1 §5): credentials issued for it, a person's or a bot's. */
        PROXY,
        /** The agent endpoint (spec 3 §5 1): a bot's credential, or a delegated agent's access token. */
        AGENT,
        /** The access API from a terminal (issue 41): a person's own credential. */
        ACCESS
    }

    private final Map<Edge, Bearers> accepted;
    private final Bearers byId;
    private final Clock clock;
    private final Map<Key, Kept> kept = new ConcurrentHashMap<>();
    /** The highest access generation seen; a resolution made before it is stale. */
    private final AtomicLong latest = new AtomicLong(Long.MIN_VALUE);

    private record Key(TokenHash token, Edge edge) {}

    private record Kept(Bearer bearer, long generation) {}

    /**
     * @param credentials credentials, for the proxy and the access API
     * @param agents what the agent endpoint accepts (credentials and agents' access tokens)
     * @param byId every bearer by its id, whichever edge admitted it (checked again by the stream guard)
     */
    public BearerResolver(Bearers credentials, Bearers agents, Bearers byId, Clock clock) {
        requireNonNull(credentials, "credentials is null");
        requireNonNull(agents, "agents is null");
        this.accepted = new EnumMap<>(Map.of(Edge.PROXY, credentials, Edge.AGENT, agents, Edge.ACCESS, credentials));
        this.byId = requireNonNull(byId, "byId is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * A resolution of {@code token} at {@code edge} kept in memory that still holds, if any: from
     * memory alone (an event loop may ask), to be confirmed against the access generation the
     * call's audit row commits with.
     */
    public Optional<Bearer> remembered(TokenHash token, Edge edge) {
        Kept found = kept.get(new Key(token, edge));
        if (found == null || found.generation() != latest.get() || !found.bearer().expiresAt()
                .isAfter(clock.instant())) {
            return Optional.empty();
        }
        return Optional.of(found.bearer());
    }

    /**
     * The bearer {@code token} names at {@code edge}, from the database (a blocking call), kept for
     * the next time under {@code generation}, the access generation read before the lookup began: a
     * change that committed after that moves the generation past it, and drops it. Whether it
     * admits anything (revoked, expired) is the caller's check to make.
     *
     * @throws dev.klave.messages.Refusal 401 {@code CREDENTIAL_UNKNOWN} when it names none
     */
    public Bearer resolve(TokenHash token, Edge edge, long generation) {
        Bearer bearer = lookUp(token, edge);
        observed(generation);
        if (kept.size() >= KEPT_LIMIT) {
            kept.clear();
        }
        if (generation == latest.get()) {
            kept.put(new Key(token, edge), new Kept(bearer, generation));
        }
        return bearer;
    }

    /**
     * The bearer {@code token} names at {@code edge}, from the database, not kept: an edge that
     * resolves each of its requests afresh (the agent endpoint, the access API).
     *
     * @throws dev.klave.messages.Refusal 401 {@code CREDENTIAL_UNKNOWN} when it names none
     */
    public Bearer resolve(TokenHash token, Edge edge) {
        return lookUp(token, edge);
    }

    private Bearer lookUp(TokenHash token, Edge edge) {
        return accepted.get(edge).find(token).orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
    }

    /**
     * The bearer a token names among credentials, whatever its state, for the audit row of a
     * request refused before it was admitted (spec 1 §1.3); empty for an unknown one, and when the
     * database cannot say.
     */
    public Optional<Bearer> identify(TokenHash token) {
        try {
            return accepted.get(Edge.PROXY).find(token);
        } catch (RuntimeException unavailable) {
            return Optional.empty();
        }
    }

    /**
     * A bearer read again by its id, as it stands now: the one check of a remembered bearer, for an
     * open call (the stream guard) or an agent before its approved write runs.
     *
     * @throws dev.klave.messages.Refusal 401 {@code CREDENTIAL_UNKNOWN} when it is gone
     */
    public Bearer again(String id) {
        return byId.findById(id).orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
    }

    /** Notes an access generation read elsewhere; resolutions made before a newer one are dropped. */
    public void observed(long generation) {
        long before = latest.getAndAccumulate(generation, Math::max);
        if (generation > before && before != Long.MIN_VALUE) {
            kept.values().removeIf(found -> found.generation() < generation);
        }
    }
}
