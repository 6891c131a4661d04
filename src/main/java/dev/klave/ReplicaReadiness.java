package dev.klave;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.AuditWriter;
import dev.klave.http.Readiness;
import dev.klave.messages.Message;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Whether this replica should get traffic (spec 1 §4 "Health"): 503 {@code database unavailable}
 * when the database does not answer within 2 s, and 503 {@code audit writer stopped} once the
 * audit writer has died — every proxied request is then refused, and a load balancer should send
 * them to another replica until this one is restarted.
 */
final class ReplicaReadiness implements Readiness {
    /** Spec 1 §4 "Health": the database must answer within 2 s for the replica to be ready. */
    static final Duration DATABASE_TIMEOUT = Duration.ofSeconds(2);
    /** English, like the specification's other health texts. */
    static final String AUDIT_WRITER_STOPPED = "audit writer stopped";

    private final Predicate<Duration> databaseAnswersWithin;
    private final AuditWriter audit;

    ReplicaReadiness(Predicate<Duration> databaseAnswersWithin, AuditWriter audit) {
        this.databaseAnswersWithin = requireNonNull(databaseAnswersWithin, "databaseAnswersWithin is null");
        this.audit = requireNonNull(audit, "audit is null");
    }

    @Override
    public Optional<String> problem() {
        if (audit.failure().isPresent()) {
            return Optional.of(AUDIT_WRITER_STOPPED);
        }
        if (!databaseAnswersWithin.test(DATABASE_TIMEOUT)) {
            return Optional.of(Message.DATABASE_NOT_READY.text());
        }
        return Optional.empty();
    }
}
