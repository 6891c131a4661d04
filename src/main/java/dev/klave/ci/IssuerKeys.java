package dev.klave.ci;

import dev.klave.messages.Untrusted;
import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The issuer's signing keys, cached. The rules:
 * <ul>
 *   <li>keys are fetched on first use and kept for {@link #CACHE_FOR}; a failed refresh keeps the
 *       old keys (a forge outage must not stop CI jobs whose tokens were signed by known keys);
 *   <li>a token naming an unknown {@code kid} (the issuer rotated its keys) triggers at most one
 *       refetch per {@link #UNKNOWN_KID_REFETCH}, so forged {@code kid}s cannot make Klave hammer
 *       the issuer;
 *   <li>with no keys at all, a failed fetch is retried at most every {@link #RETRY_AFTER_FAILURE}
 *       and the caller is told with {@link KeysUnavailableException} (the exchange fails closed).
 * </ul>
 * Nimbus's own {@code JWKSourceBuilder} rate limiter lets two fetches through per interval, and
 * its outage tolerance hides whether keys were ever had; both matter here, hence this class.
 */
public final class IssuerKeys implements JWKSource<SecurityContext> {
    public static final Duration CACHE_FOR = Duration.ofMinutes(10);
    public static final Duration UNKNOWN_KID_REFETCH = Duration.ofMinutes(1);
    public static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(IssuerKeys.class);

    /** Reads the issuer's current key set; throws when it cannot. */
    @FunctionalInterface
    public interface Fetcher {
        JWKSet fetch() throws IOException;
    }

    /** No key set was ever obtained: the exchange cannot verify anything. */
    public static final class KeysUnavailableException extends KeySourceException {
        KeysUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Fetcher fetcher;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private Optional<JWKSet> keys = Optional.empty();
    private Instant fetchedAt = Instant.MIN;
    private Instant lastUnknownKidRefetch = Instant.MIN;
    private Instant lastFailure = Instant.MIN;
    private Optional<IOException> lastProblem = Optional.empty();

    public IssuerKeys(Fetcher fetcher, Clock clock) {
        this.fetcher = requireNonNull(fetcher, "fetcher is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public List<JWK> get(JWKSelector selector, SecurityContext context) throws KeySourceException {
        lock.lock();
        try {
            Instant now = clock.instant();
            if (keys.isEmpty()) {
                if (now.isBefore(lastFailure.plus(RETRY_AFTER_FAILURE)) || !refresh(now)) {
                    throw new KeysUnavailableException("the issuer's keys cannot be fetched: "
                            + lastProblem.map(IOException::getMessage).orElse("unknown"), lastProblem.orElse(null));
                }
            } else if (!now.isBefore(fetchedAt.plus(CACHE_FOR))) {
                refresh(now);
            }
            List<JWK> found = selector.select(keys.orElseThrow());
            if (found.isEmpty() && !now.isBefore(lastUnknownKidRefetch.plus(UNKNOWN_KID_REFETCH))) {
                lastUnknownKidRefetch = now;
                if (refresh(now)) {
                    found = selector.select(keys.orElseThrow());
                }
            }
            return found;
        } finally {
            lock.unlock();
        }
    }

    private boolean refresh(Instant now) {
        try {
            JWKSet fetched = fetcher.fetch();
            keys = Optional.of(fetched);
            fetchedAt = now;
            lastProblem = Optional.empty();
            LOG.debug("CI issuer keys fetched: {} key(s)", fetched.size());
            return true;
        } catch (IOException | RuntimeException e) {
            lastFailure = now;
            lastProblem = Optional.of(e instanceof IOException io ? io : new IOException(e.getMessage(), e));
            LOG.warn("cannot fetch the CI issuer's keys{}: {}", keys.isPresent() ? " (keeping the cached ones)" : "",
                    Untrusted.text(e.getMessage()));
            return false;
        }
    }
}
