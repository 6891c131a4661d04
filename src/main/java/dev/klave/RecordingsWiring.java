package dev.klave;

import dev.klave.config.Settings;
import dev.klave.proxy.NettySpdyReader;
import dev.klave.recording.RecordingPolicies;
import dev.klave.recording.RecordingRoutes;
import dev.klave.recording.Recordings;
import dev.klave.store.Database;
import dev.klave.store.JdbiRecordingPolicyStore;
import dev.klave.store.JdbiRecordingStore;
import java.util.Optional;

/**
 * Recorded exec and attach sessions (issues 42, 51): each cluster's recording policy, and the
 * recordings the proxy's upgrades tap, with their library and routes. {@link #start()} starts
 * reading the policies again every 5 s and the recordings' writer (a flush every second, the
 * upkeep every 30 s; the recorders' threads come with the first session recorded);
 * {@link #close()} ends the sessions still recorded, lets the writer finish, then stops the
 * policies' reads.
 */
final class RecordingsWiring {
    final RecordingPolicies policies;
    final Recordings recordings;

    RecordingsWiring(Database database, Settings settings, AccountsWiring accounts, ClustersWiring clusters) {
        policies = new RecordingPolicies(new JdbiRecordingPolicyStore(database), clusters.clusterStore,
                accounts.events, database, accounts.clock);
        // The transport reads SPDY/3.1 for the recorder: Netty's codec, which only the proxy may use.
        recordings = new Recordings(new JdbiRecordingStore(database), policies, accounts.events, database,
                accounts.clock, settings.recordings().capBytes(), settings.recordings().quotaBytes(),
                settings.recordings().shareBytes(), Optional.of(settings.recordings().retention()),
                NettySpdyReader.FACTORY);
    }

    RecordingRoutes routes(AccountsWiring accounts) {
        return new RecordingRoutes(recordings.library(), policies, accounts.subjects::idOrLogin);
    }

    void start() {
        policies.start();
        recordings.startWriting();
    }

    void close() {
        recordings.close();
        policies.close();
    }
}
