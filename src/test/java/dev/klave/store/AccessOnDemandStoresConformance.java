package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.access.EligibleGrant;
import dev.klave.access.EligibleGrantStore;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.agent.approval.AccessPolicy;
import dev.klave.agent.approval.AccessPolicyStore;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.crypto.Sealer;
import dev.klave.notify.Destination;
import dev.klave.notify.DestinationStore;
import dev.klave.notify.Kind;
import dev.klave.notify.Outbox;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the stores of issue 41 must do on both databases: eligible grants, clusters' access
 * policies with their deciders, notification destinations (address and secret sealed, read back
 * whole) and the outbox (one row per event and target, claims that two replicas cannot both win,
 * retries and giving up, a destination's log).
 */
abstract class AccessOnDemandStoresConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    private EligibleGrantStore eligible;
    private AccessPolicyStore policies;
    private DestinationStore destinations;
    private Outbox outbox;
    private JdbiClusterStore clusters;

    @Override
    protected void setUp(Database database) {
        eligible = new JdbiEligibleGrantStore(database);
        policies = new JdbiAccessPolicyStore(database);
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        destinations = new JdbiDestinationStore(database, new Sealer(key, new SecureRandom()));
        outbox = new JdbiOutbox(database);
        clusters = new JdbiClusterStore(database);
    }

    private ClusterId storedCluster() {
        ClusterId id = new ClusterId("c-" + UUID.randomUUID().toString().substring(0, 8));
        clusters.create(new Cluster(id, "Cluster", NOW, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty()));
        return id;
    }

    @Test
    void anEligibleGrantReadsBackAndIsRevokedOnce() {
        SubjectId eva = storedPerson("eligible");
        ClusterId cluster = storedCluster();
        EligibleGrant grant = new EligibleGrant(UUID.randomUUID().toString(), eva, cluster, Tier.EDIT,
                new Scope("team-a"), 120, true, "guardia: ñ", NOW, Optional.of("root"), Optional.empty(),
                Optional.empty());
        eligible.create(grant);

        assertThat(eligible.findById(grant.id())).contains(grant);
        assertThat(eligible.find(Optional.of(eva), Optional.of(cluster), false, 10)).containsExactly(grant);
        assertThat(eligible.revoke(grant.id(), NOW.plusSeconds(1), "root")).isTrue();
        assertThat(eligible.revoke(grant.id(), NOW.plusSeconds(2), "root")).isFalse();
        assertThat(eligible.find(Optional.of(eva), Optional.empty(), false, 10)).isEmpty();
        assertThat(eligible.find(Optional.of(eva), Optional.empty(), true, 10).get(0).revokedAt())
                .contains(NOW.plusSeconds(1));
    }

    @Test
    void aClusterWithoutAPolicyHasTheDefaultsAndASavedOneReplacesItsDeciders() {
        ClusterId cluster = storedCluster();
        SubjectId ana = storedPerson("decider");
        SubjectId luis = storedPerson("decider");
        assertThat(policies.find(cluster)).isEqualTo(AccessPolicy.defaults(cluster));

        database().inTransaction(() -> {
            policies.save(new AccessPolicy(cluster, 120, true, Set.of(ana, luis)), NOW, "root");
            return null;
        });
        assertThat(policies.find(cluster)).isEqualTo(new AccessPolicy(cluster, 120, true, Set.of(ana, luis)));
        assertThat(policies.decidedBy(ana)).containsExactly(cluster);

        database().inTransaction(() -> {
            policies.save(new AccessPolicy(cluster, 60, false, Set.of(luis)), NOW, "root");
            return null;
        });
        assertThat(policies.find(cluster)).isEqualTo(new AccessPolicy(cluster, 60, false, Set.of(luis)));
        assertThat(policies.decidedBy(ana)).isEmpty();
    }

    private Destination destination(Destination.Format format) {
        Destination made = new Destination(UUID.randomUUID().toString(), "guardia", format,
                URI.create("https://hooks.example.com/services/T0/B0/secreto"), "https://hooks.example.com/…",
                format == Destination.Format.JSON ? Optional.of("kws_secreto") : Optional.empty(),
                Set.of(Kind.ACCESS_WAITING, Kind.DECIDED), NOW, Optional.of("root"), Destination.Delivery.NONE,
                Optional.empty());
        destinations.create(made);
        return made;
    }

    @Test
    void aDestinationReadsBackWholeAndRecordsHowItsDeliveriesGo() {
        Destination json = destination(Destination.Format.JSON);

        assertThat(destinations.findById(json.id())).contains(json);
        destinations.attempted(json.id(), NOW.plusSeconds(1), Optional.of(503), Optional.of("HTTP 503"), false);
        destinations.attempted(json.id(), NOW.plusSeconds(2), Optional.empty(), Optional.of("reset"), false);
        Destination failing = destinations.findById(json.id()).orElseThrow();
        assertThat(failing.failingSince()).as("since the first failure").contains(NOW.plusSeconds(1));
        assertThat(failing.last().error()).contains("reset");

        destinations.attempted(json.id(), NOW.plusSeconds(3), Optional.of(200), Optional.empty(), true);
        Destination fine = destinations.findById(json.id()).orElseThrow();
        assertThat(fine.failingSince()).isEmpty();
        assertThat(fine.last().deliveredAt()).contains(NOW.plusSeconds(3));
        assertThat(destinations.delete(json.id())).isTrue();
        assertThat(destinations.findById(json.id())).isEmpty();
    }

    private Outbox.Row row(Destination destination, String key) {
        return new Outbox.Row("n_" + UUID.randomUUID(), Outbox.Channel.WEBHOOK, Optional.of(destination.id()),
                destination.id(), Kind.ACCESS_WAITING, key, "{\"title\":\"x\"}", NOW, 0, NOW, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    @Test
    void theOutboxKeepsOneRowPerEventAndTargetAndOneClaimWins() {
        Destination slack = destination(Destination.Format.SLACK);
        String key = "waiting:" + UUID.randomUUID();
        Outbox.Row first = row(slack, key);

        assertThat(database().inTransaction(() -> outbox.add(first))).isTrue();
        assertThat(database().inTransaction(() -> outbox.add(row(slack, key)))).as("the same event again").isFalse();
        assertThat(outbox.add(new Outbox.Row("n_" + UUID.randomUUID(), Outbox.Channel.EMAIL, Optional.empty(),
                "eva@example.com", Kind.ACCESS_WAITING, key, "{}", NOW, 0, NOW, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty()))).as("another target").isTrue();

        List<Outbox.Row> claimed = outbox.claim(NOW, NOW.plusSeconds(120), 1000);
        assertThat(claimed).extracting(Outbox.Row::id).contains(first.id());
        assertThat(outbox.claim(NOW.plusSeconds(60), NOW.plusSeconds(180), 1000)).extracting(Outbox.Row::id)
                .as("claimed by another replica").doesNotContain(first.id());

        outbox.failed(first.id(), NOW.plusSeconds(1), Optional.of(503), "HTTP 503", Optional.of(NOW.plusSeconds(30)));
        assertThat(outbox.claim(NOW.plusSeconds(10), NOW.plusSeconds(130), 1000)).extracting(Outbox.Row::id)
                .as("not before its next attempt").doesNotContain(first.id());
        assertThat(outbox.claim(NOW.plusSeconds(31), NOW.plusSeconds(151), 1000)).extracting(Outbox.Row::id)
                .contains(first.id());
        outbox.delivered(first.id(), NOW.plusSeconds(32), 200);
        assertThat(outbox.claim(NOW.plusSeconds(500), NOW.plusSeconds(620), 1000)).extracting(Outbox.Row::id)
                .doesNotContain(first.id());

        Outbox.Row logged = outbox.ofDestination(slack.id(), 10).get(0);
        assertThat(logged.attempts()).isEqualTo(2);
        assertThat(logged.deliveredAt()).contains(NOW.plusSeconds(32));
        assertThat(logged.lastStatus()).contains(200);
    }

    @Test
    void aRowGivenUpIsNeverClaimedAgain() {
        Destination slack = destination(Destination.Format.SLACK);
        Outbox.Row row = row(slack, "notice:" + UUID.randomUUID());
        outbox.add(row);
        outbox.claim(NOW, NOW.plusSeconds(120), 1000);

        outbox.failed(row.id(), NOW.plusSeconds(1), Optional.empty(), "reset", Optional.empty());

        assertThat(outbox.claim(NOW.plusSeconds(10_000), NOW.plusSeconds(10_120), 1000)).extracting(Outbox.Row::id)
                .doesNotContain(row.id());
        assertThat(outbox.ofDestination(slack.id(), 10).get(0).gaveUpAt()).contains(NOW.plusSeconds(1));
    }
}
