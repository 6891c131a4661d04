package dev.klave.login.oidc;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import dev.klave.config.OidcSettings;
import dev.klave.messages.Untrusted;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider as Klave knows it: its discovery document and signing keys (spec 2 §5
 * "Discovery"). Klave never waits for the provider at start: the document is fetched in the
 * background then, and again at sign-in while it is missing. The document must name the
 * configured issuer character for character. Keys are read with the document and again, at most
 * once a minute, when a token names a key Klave does not have.
 */
public final class OidcProvider {
    private static final Logger LOG = LoggerFactory.getLogger(OidcProvider.class);
    static final Duration KEY_REFRESH = Duration.ofMinutes(1);

    private final OidcSettings settings;
    private final OidcHttp http;
    private final DiscoveryStatusStore status;
    private final Clock clock;
    private final AtomicReference<Known> known = new AtomicReference<>();
    /**
     * Fetches ended so far (read without the lock, so a caller notes it before waiting), and how
     * the last one failed: callers that waited share the fetch they waited for.
     */
    private volatile long fetchesEnded;
    private ProviderUnavailableException lastFailure;

    OidcProvider(OidcSettings settings, OidcHttp http, DiscoveryStatusStore status, Clock clock) {
        this.settings = requireNonNull(settings, "settings is null");
        this.http = requireNonNull(http, "http is null");
        this.status = requireNonNull(status, "status is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public OidcProvider(OidcSettings settings, javax.net.ssl.SSLContext tls, DiscoveryStatusStore status, Clock clock) {
        this(settings, new OidcHttp(tls), status, clock);
    }

    /** The document and the keys last read with it. */
    record Known(OIDCProviderMetadata metadata, JWKSet keys, Instant keysAt) {}

    /** Starts a fetch on a thread of its own; start-up goes on at once. */
    public void fetchInBackground() {
        Thread.ofVirtual().name("klave-oidc-discovery").start(() -> {
            try {
                known();
            } catch (ProviderUnavailableException e) {
                // Already logged and recorded; the next sign-in tries again.
            } catch (RuntimeException e) {
                LOG.error("OIDC discovery failed: {}", Untrusted.text(String.valueOf(e)), e);
            }
        });
    }

    /** What is known of the provider, fetched now when nothing is. */
    Known known() throws ProviderUnavailableException {
        Known current = known.get();
        if (current != null) {
            return current;
        }
        return fetch(fetchesEnded);
    }

    /** Whether the document has been read by this replica. */
    public boolean discovered() {
        return known.get() != null;
    }

    /** The signing keys again, when a token names one Klave does not know (at most once a minute). */
    JWKSet refreshedKeys(Known seen) throws ProviderUnavailableException {
        Instant now = clock.instant();
        if (now.isBefore(seen.keysAt().plus(KEY_REFRESH))) {
            return seen.keys();
        }
        JWKSet keys = keys(seen.metadata());
        known.compareAndSet(seen, new Known(seen.metadata(), keys, now));
        return keys;
    }

    /**
     * One fetch at a time. A caller that waited while another fetch failed takes that failure
     * rather than starting its own, so a sign-in during a slow fetch (the one at start, say) waits
     * for one call's deadline at most (spec 2 §5 "Discovery": the button answers at once).
     */
    private synchronized Known fetch(long endedBefore) throws ProviderUnavailableException {
        Known current = known.get();
        if (current != null) {
            return current;
        }
        if (fetchesEnded != endedBefore && lastFailure != null) {
            throw new ProviderUnavailableException(lastFailure.getMessage(), lastFailure);
        }
        String issuer = settings.issuer().toString();
        Instant now = clock.instant();
        try {
            String text = http.get(discoveryUrl(settings.issuer()), "discovery document");
            OIDCProviderMetadata metadata;
            try {
                metadata = OIDCProviderMetadata.parse(text);
            } catch (ParseException e) {
                throw new ProviderUnavailableException("discovery document: not valid: "
                        + Untrusted.text(String.valueOf(e.getMessage())));
            }
            // Spec 2 §2: the issuer exactly as the document names it, character for character.
            if (!issuer.equals(metadata.getIssuer().getValue())) {
                throw new ProviderUnavailableException("discovery document names issuer "
                        + Untrusted.text(metadata.getIssuer().getValue()) + ", not " + issuer);
            }
            if (metadata.getTokenEndpointURI() == null || metadata.getJWKSetURI() == null) {
                throw new ProviderUnavailableException("discovery document: no token endpoint or jwks_uri");
            }
            Known fetched = new Known(metadata, keys(metadata), now);
            known.set(fetched);
            lastFailure = null;
            fetchesEnded++;
            status.fetched(issuer, now);
            LOG.info("OIDC discovery of {} fetched", issuer);
            return fetched;
        } catch (ProviderUnavailableException e) {
            lastFailure = e;
            fetchesEnded++;
            LOG.warn("OIDC discovery of {} failed: {}", issuer, e.getMessage());
            try {
                status.failed(issuer, now, e.getMessage());
            } catch (RuntimeException storeFailure) {
                LOG.warn("could not record the discovery failure: {}", Untrusted.text(String.valueOf(storeFailure)));
            }
            throw e;
        }
    }

    private JWKSet keys(OIDCProviderMetadata metadata) throws ProviderUnavailableException {
        try {
            return JWKSet.parse(http.get(metadata.getJWKSetURI(), "signing keys"));
        } catch (java.text.ParseException e) {
            throw new ProviderUnavailableException("signing keys: not a JWK set");
        }
    }

    /** OpenID Connect Discovery 1.0 §4: {@code <issuer>/.well-known/openid-configuration}, one slash between. */
    static URI discoveryUrl(URI issuer) {
        String base = issuer.toString();
        if (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return URI.create(base + "/.well-known/openid-configuration");
    }

    public Optional<DiscoveryStatus> status() {
        return status.find(settings.issuer().toString());
    }

    OidcHttp http() {
        return http;
    }

    /** The provider's name as people read it ({@code OIDC_DISPLAY_NAME}). */
    public String displayName() {
        return settings.displayName();
    }

    OidcSettings settings() {
        return settings;
    }
}
