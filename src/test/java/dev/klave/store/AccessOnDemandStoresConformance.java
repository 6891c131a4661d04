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
 * whole) and the outbox (one row per event and target, lanes due and claimed each on its own,
 * claims that two replicas cannot both win until one lapses, retries and giving up, a delivery a
 * late failure does not undo, a destination's log).
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

    private Outbox.Row email(String key, Instant due) {
        return new Outbox.Row("n_" + UUID.randomUUID(), Outbox.Channel.EMAIL, Optional.empty(),
                "eva-" + UUID.randomUUID() + "@example.com", Kind.ACCESS_WAITING, key, "{}", NOW, 0, due,
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    @Test
    void theOutboxKeepsOneRowPerEventAndTargetAndOneClaimWins() {
        Destination slack = destination(Destination.Format.SLACK);
        Outbox.Lane lane = Outbox.Lane.webhook(slack.id());
        String key = "waiting:" + UUID.randomUUID();
        Outbox.Row first = row(slack, key);

        assertThat(database().inTransaction(() -> outbox.add(first))).isTrue();
        assertThat(database().inTransaction(() -> outbox.add(row(slack, key)))).as("the same event again").isFalse();
        assertThat(outbox.add(new Outbox.Row("n_" + UUID.randomUUID(), Outbox.Channel.EMAIL, Optional.empty(),
                "eva@example.com", Kind.ACCESS_WAITING, key, "{}", NOW, 0, NOW, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty()))).as("another target").isTrue();

        assertThat(outbox.due(NOW, 1000)).contains(lane, Outbox.Lane.EMAIL);
        assertThat(outbox.claim(lane, NOW, NOW.plusSeconds(30))).map(Outbox.Row::id).contains(first.id());
        assertThat(outbox.due(NOW.plusSeconds(10), 1000)).as("its only row claimed").doesNotContain(lane);
        assertThat(outbox.claim(lane, NOW.plusSeconds(10), NOW.plusSeconds(40))).as("claimed by another replica")
                .isEmpty();
        assertThat(outbox.claim(lane, NOW.plusSeconds(30), NOW.plusSeconds(60))).as("once the claim lapses")
                .map(Outbox.Row::id).contains(first.id());

        outbox.failed(first.id(), NOW.plusSeconds(31), Optional.of(503), "HTTP 503", Optional.of(NOW.plusSeconds(61)));
        assertThat(outbox.due(NOW.plusSeconds(60), 1000)).as("not before its next attempt").doesNotContain(lane);
        assertThat(outbox.claim(lane, NOW.plusSeconds(60), NOW.plusSeconds(90))).isEmpty();
        assertThat(outbox.due(NOW.plusSeconds(61), 1000)).contains(lane);
        assertThat(outbox.claim(lane, NOW.plusSeconds(61), NOW.plusSeconds(91))).map(Outbox.Row::id)
                .contains(first.id());
        outbox.delivered(first.id(), NOW.plusSeconds(62), 200);
        outbox.failed(first.id(), NOW.plusSeconds(63), Optional.empty(), "a late replica's timeout",
                Optional.of(NOW.plusSeconds(93)));
        assertThat(outbox.claim(lane, NOW.plusSeconds(500), NOW.plusSeconds(530))).isEmpty();

        Outbox.Row logged = outbox.ofDestination(slack.id(), 10).get(0);
        assertThat(logged.attempts()).isEqualTo(2);
        assertThat(logged.deliveredAt()).as("a late failure does not undo a delivery").contains(NOW.plusSeconds(62));
        assertThat(logged.lastStatus()).contains(200);
        assertThat(logged.lastError()).isEmpty();
    }

    @Test
    void eachLaneIsClaimedOnItsOwnEarliestDueFirst() {
        Destination hanging = destination(Destination.Format.SLACK);
        Destination fine = destination(Destination.Format.JSON);
        Outbox.Row hangingFirst = row(hanging, "waiting:" + UUID.randomUUID());
        Outbox.Row hangingSecond = row(hanging, "waiting:" + UUID.randomUUID());
        Outbox.Row fineOne = row(fine, "waiting:" + UUID.randomUUID());
        Outbox.Row later = new Outbox.Row("n_" + UUID.randomUUID(), Outbox.Channel.WEBHOOK, Optional.of(fine.id()),
                fine.id(), Kind.ACCESS_WAITING, "waiting:" + UUID.randomUUID(), "{}", NOW, 0, NOW.plusSeconds(5),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        Outbox.Row mail = email("waiting:" + UUID.randomUUID(), NOW);
        for (Outbox.Row row : List.of(hangingFirst, hangingSecond, later, fineOne, mail)) {
            outbox.add(row);
        }

        assertThat(outbox.due(NOW, 1000)).contains(Outbox.Lane.webhook(hanging.id()), Outbox.Lane.webhook(fine.id()),
                Outbox.Lane.EMAIL).doesNotHaveDuplicates();
        Outbox.Row held = outbox.claim(Outbox.Lane.webhook(hanging.id()), NOW, NOW.plusSeconds(30)).orElseThrow();
        assertThat(held.destinationId()).contains(hanging.id());
        assertThat(outbox.claim(Outbox.Lane.webhook(fine.id()), NOW, NOW.plusSeconds(30))).as("another lane, free")
                .map(Outbox.Row::id).contains(fineOne.id());
        assertThat(outbox.claim(Outbox.Lane.webhook(fine.id()), NOW, NOW.plusSeconds(30))).as("its later row not due")
                .isEmpty();
        assertThat(outbox.claim(Outbox.Lane.EMAIL, NOW, NOW.plusSeconds(30)).orElseThrow().channel())
                .isEqualTo(Outbox.Channel.EMAIL);
        assertThat(outbox.claim(Outbox.Lane.webhook(hanging.id()), NOW, NOW.plusSeconds(30))).as("the lane's next row")
                .map(Outbox.Row::id).contains(held.id().equals(hangingFirst.id()) ? hangingSecond.id() : hangingFirst.id());
        assertThat(outbox.due(NOW, 1000)).doesNotContain(Outbox.Lane.webhook(hanging.id()),
                Outbox.Lane.webhook(fine.id()));
        assertThat(outbox.due(NOW.plusSeconds(5), 1000)).contains(Outbox.Lane.webhook(fine.id()));
    }

    @Test
    void aRowGivenUpIsNeverClaimedAgain() {
        Destination slack = destination(Destination.Format.SLACK);
        Outbox.Row row = row(slack, "notice:" + UUID.randomUUID());
        outbox.add(row);
        outbox.claim(Outbox.Lane.webhook(slack.id()), NOW, NOW.plusSeconds(30));

        outbox.failed(row.id(), NOW.plusSeconds(1), Optional.empty(), "reset", Optional.empty());

        assertThat(outbox.claim(Outbox.Lane.webhook(slack.id()), NOW.plusSeconds(10_000), NOW.plusSeconds(10_030)))
                .isEmpty();
        assertThat(outbox.due(NOW.plusSeconds(10_000), 1000)).doesNotContain(Outbox.Lane.webhook(slack.id()));
        assertThat(outbox.ofDestination(slack.id(), 10).get(0).gaveUpAt()).contains(NOW.plusSeconds(1));
    }
}
