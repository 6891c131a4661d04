package dev.klave.oauth.client;

import static java.util.Objects.requireNonNull;

import dev.klave.oauth.client.MetadataRefused.Reason;
import dev.klave.outbound.AddressPolicy;
import dev.klave.outbound.Answer;
import dev.klave.outbound.OutboundFailure;
import dev.klave.outbound.PinnedHttps;
import dev.klave.outbound.Resolver;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLContext;

/**
 * OAuth clients identified by a metadata document (spec 3 §4 "Agent login": "fetched only over
 * https, from public addresses, without following redirects, in 5 seconds, at most 64 KiB, and
 * reused for one hour"; draft-ietf-oauth-client-id-metadata-document). Blocking: call it from a
 * virtual thread.
 *
 * <p>A good document is kept for an hour per {@code client_id}, for at most {@link #MOST_KEPT}
 * clients (past that, a new one is served but not kept). A refusal is not kept: it costs one
 * bounded fetch, the authorization endpoint's per-address limit (spec 3 §8) bounds how often
 * anyone can cause one, and keeping it would hold a client out for the period after a passing
 * failure, or after its developer fixed the document. Two requests for the same client at once
 * may both fetch.
 */
public final class ClientMetadataDocuments {
    /** Spec 3 §8. */
    public static final Duration DEADLINE = Duration.ofSeconds(5);
    /** Spec 3 §8. */
    public static final int SIZE_LIMIT = 64 * 1024;
    /** Spec 3 §8. */
    public static final Duration REUSE = Duration.ofHours(1);
    static final int MOST_KEPT = 10_000;

    private final PinnedHttps http;
    private final Clock clock;
    private final Map<String, Kept> kept = new ConcurrentHashMap<>();

    /**
     * @param tls the JDK's default ({@code SSLContext.getDefault()}) in production: documents are on
     *     public addresses, so their certificates chain to public CAs
     * @param policy {@link AddressPolicy#publicOnly()} in production
     */
    public ClientMetadataDocuments(SSLContext tls, AddressPolicy policy, Resolver resolver, Duration deadline,
            Clock clock) {
        this.http = new PinnedHttps(tls, policy, resolver, deadline, SIZE_LIMIT);
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** As spec 3 asks: public addresses only, the system's resolver, 5 s. */
    public static ClientMetadataDocuments standard(SSLContext tls, Clock clock) {
        return new ClientMetadataDocuments(tls, AddressPolicy.publicOnly(), Resolver.system(), DEADLINE, clock);
    }

    public Duration deadline() {
        return http.deadline();
    }

    /** The client named by {@code clientId} as a request carried it. */
    public PublishedClient fetch(String clientId) throws MetadataRefused {
        return fetch(ClientIdUrls.check(requireNonNull(clientId, "clientId is null")));
    }

    /** The client whose document is at {@code clientId}, kept or fetched now. */
    public PublishedClient fetch(URI clientId) throws MetadataRefused {
        URI url = ClientIdUrls.check(requireNonNull(clientId, "clientId is null"));
        String key = url.toString();
        Kept known = kept.get(key);
        if (known != null && clock.instant().isBefore(known.until())) {
            return known.metadata();
        }
        PublishedClient metadata = MetadataDocument.read(url, download(url));
        keep(key, new Kept(metadata, clock.instant().plus(REUSE)));
        return metadata;
    }

    private Answer download(URI url) throws MetadataRefused {
        Answer answer;
        try {
            answer = http.get(url, "application/json");
        } catch (OutboundFailure failure) {
            throw switch (failure.kind()) {
                case ADDRESS_REFUSED -> new MetadataRefused(Reason.PRIVATE_ADDRESS);
                case DEADLINE -> new MetadataRefused(Reason.TIMEOUT, seconds(http.deadline()));
                case TOO_LARGE -> new MetadataRefused(Reason.TOO_LARGE, SIZE_LIMIT / 1024 + " KiB");
                case FAILED -> new MetadataRefused(isTls(failure) ? Reason.TLS : Reason.UNREACHABLE);
            };
        }
        if (answer.status() / 100 == 3) {
            throw new MetadataRefused(Reason.REDIRECT);
        }
        if (answer.status() != 200) {
            throw new MetadataRefused(Reason.HTTP_STATUS, String.valueOf(answer.status()));
        }
        return answer;
    }

    private void keep(String key, Kept entry) {
        if (kept.size() >= MOST_KEPT) {
            Instant now = clock.instant();
            kept.values().removeIf(old -> !now.isBefore(old.until()));
        }
        if (kept.size() < MOST_KEPT || kept.containsKey(key)) {
            kept.put(key, entry);
        }
    }

    private static boolean isTls(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    private record Kept(PublishedClient metadata, Instant until) {}
}
