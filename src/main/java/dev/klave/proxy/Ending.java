package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditWriter;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Completes one request's audit row once: the first ending (the answer, a cut, the client
 * hanging up) is the one recorded, and the request leaves the open streams.
 */
final class Ending {
    private final String auditId;
    private final OpenStreams streams;
    private final AuditWriter audit;
    private final Clock clock;
    private final AtomicBoolean ended = new AtomicBoolean();

    Ending(String auditId, OpenStreams streams, AuditWriter audit, Clock clock) {
        this.auditId = requireNonNull(auditId, "auditId is null");
        this.streams = requireNonNull(streams, "streams is null");
        this.audit = requireNonNull(audit, "audit is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    void end(int status, Optional<String> error) {
        if (ended.compareAndSet(false, true)) {
            streams.closed(auditId);
            audit.complete(new AuditRow.Completion(auditId, status, error, clock.instant()));
        }
    }
}
