package dev.klave;

import dev.klave.audit.AuditRetention;
import dev.klave.audit.AuditWriter;
import dev.klave.config.Settings;
import dev.klave.store.Database;
import dev.klave.store.JdbiAuditStore;
import dev.klave.store.JdbiLeaseStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;

/**
 * The audit record of calls to clusters (spec 1 §4 "Audit"): its store, the group-commit writer
 * every way in writes its rows through, and the retention that deletes rows past
 * {@code SERVICE_AUDIT_RETENTION} when it is set. {@link #start()} starts the writer's threads
 * (commits, record deadlines) and the retention's; {@link #close()} stops the retention, then the
 * writer, which writes what it holds — last of all, once nothing writes rows any more.
 */
final class AuditWiring {
    final JdbiAuditStore store;
    final AuditWriter writer;
    /** Deleting audit rows past {@code SERVICE_AUDIT_RETENTION}, when it is set. */
    final Optional<AuditRetention> retention;

    /** @param replica this replica's name in the retention's lease */
    AuditWiring(Database database, Settings settings, AccountsWiring accounts, String replica,
            MeterRegistry registry) {
        store = new JdbiAuditStore(database);
        writer = new AuditWriter(store, settings.auditTimeout(), registry);
        retention = settings.auditRetention().map(kept -> new AuditRetention(store, new JdbiLeaseStore(database),
                accounts.events, kept, replica, accounts.clock));
    }

    void start() {
        writer.start();
        retention.ifPresent(AuditRetention::start);
    }

    void close() {
        retention.ifPresent(AuditRetention::close);
        writer.close();
    }
}
