package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.ClusterId;
import dev.klave.credential.Credential;
import dev.klave.credential.CredentialStore;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long-lived streams this replica holds open (watches, followed logs), checked against the
 * database every few seconds: a stream whose credential was revoked or expired, whose owner was
 * disabled, or whose grant ended is cut (spec 1 §3: within 10 s). Each replica checks its own
 * streams against the shared database, so a revocation made on any replica reaches all of them.
 */
public final class OpenStreams implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OpenStreams.class);
    static final Duration CHECK_EVERY = Duration.ofSeconds(2);

    private final ProxyAuthenticator authenticator;
    private final CredentialStore credentials;
    private final Map<String, Stream> streams = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler;

    /** One open stream; {@code cut} closes it and says why in its audit row. */
    record Stream(String auditId, String credentialId, ClusterId cluster, Consumer<String> cut) {}

    public OpenStreams(ProxyAuthenticator authenticator, CredentialStore credentials) {
        this.authenticator = requireNonNull(authenticator, "authenticator is null");
        this.credentials = requireNonNull(credentials, "credentials is null");
        this.scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("klave-stream-guard").factory());
        scheduler.scheduleWithFixedDelay(this::check, CHECK_EVERY.toMillis(), CHECK_EVERY.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    void open(Stream stream) {
        streams.put(stream.auditId(), stream);
    }

    void closed(String auditId) {
        streams.remove(auditId);
    }

    private void check() {
        for (Stream stream : streams.values()) {
            try {
                Credential credential = credentials.findById(stream.credentialId())
                        .orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
                authenticator.authenticate(credential, stream.cluster());
            } catch (Refusal refusal) {
                LOG.info("cutting stream {}: {}", stream.auditId(), refusal.getMessage());
                streams.remove(stream.auditId());
                stream.cut().accept(Message.AUDIT_STREAM_CUT.text());
            } catch (RuntimeException e) {
                // The database is away: keep the stream, try again at the next check.
                LOG.warn("could not check stream {}: {}", stream.auditId(), e.getMessage());
            }
        }
    }

    /** On SIGTERM: every stream is cut with {@code servicio reiniciando} in its row. */
    public void cutAll() {
        for (Stream stream : streams.values()) {
            streams.remove(stream.auditId());
            stream.cut().accept(Message.AUDIT_RESTARTING.text());
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
