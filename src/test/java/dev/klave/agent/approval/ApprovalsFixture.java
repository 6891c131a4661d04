package dev.klave.agent.approval;

import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import dev.klave.account.Login;
import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectKind;
import dev.klave.audit.ControlEvents;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.store.Database;
import dev.klave.store.JdbiClusterStore;
import dev.klave.store.JdbiControlEventStore;
import dev.klave.store.JdbiSubjectStore;
import dev.klave.store.JdbiWriteRequestStore;
import dev.klave.store.PostgresDecisionSignals;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** One replica's {@link Approvals} over a database, and the rows requests need: people, a bot, a cluster. */
final class ApprovalsFixture {
    static final ClusterId CLUSTER = new ClusterId("prod-1");
    static final HeldCall SCALE = new HeldCall(Method.PATCH,
            ClusterPath.of("apis", "apps", "v1", "namespaces", "team-a", "deployments", "web", "scale"), Query.NONE,
            Optional.of("{\"spec\":{\"replicas\":3}}"),
            Optional.of("application/merge-patch+json"));

    final Database database;
    final Approvals approvals;
    final JdbiSubjectStore subjects;

    /** @param recheck how often a waiter reads again on its own: long, so only a signal can wake it at once */
    ApprovalsFixture(Database database, Clock clock, Duration recheck) {
        this.database = database;
        this.subjects = new JdbiSubjectStore(database);
        this.approvals = new Approvals(database, new JdbiWriteRequestStore(database), subjects,
                new ControlEvents(new JdbiControlEventStore(database), clock), PostgresDecisionSignals.of(database),
                new RequestIds(new SecureRandom()), clock, recheck, dev.klave.agent.approval.RequestNotices.NONE,
                actor -> !ended.contains(actor));
    }

    /** Askers whose session ended or whose credential was revoked: their held writes can no longer run. */
    final java.util.Set<Actor> ended = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The cluster every request is for; stored once per database. */
    void storeCluster() {
        new JdbiClusterStore(database).create(new Cluster(CLUSTER, "Producción", Instant.EPOCH, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty()));
    }

    Principal person(String login, boolean admin) {
        Subject person = Subject.newPerson(new Login(login), login, Optional.empty(), admin, false, Instant.EPOCH);
        subjects.create(person);
        return new Principal(person.id(), person.login(), admin, java.util.Optional.of("session-of-" + login));
    }

    SubjectId bot(String login) {
        Subject bot = new Subject(SubjectId.random(), new Login(login), SubjectKind.BOT, login, Optional.empty(),
                false, false, Optional.empty(), Optional.empty(), Instant.EPOCH, false);
        subjects.create(bot);
        return bot.id();
    }

    static Actor botActor(SubjectId bot) {
        return new Actor(bot, Optional.of("credential-" + bot), Optional.empty());
    }

    static Actor delegated(Principal person) {
        return new Actor(person.subjectId(), Optional.empty(), Optional.of("agent-session-" + person.login()));
    }

    /** A held scale of deployment web, told apart by {@code hash}; a bot's is decided by administrators. */
    WriteRequest hold(Actor actor, String hash) {
        Optional<SubjectId> decider = subjects.findById(actor.subject()).orElseThrow().kind() == SubjectKind.BOT
                ? Optional.empty() : Optional.of(actor.subject());
        return approvals.hold(actor, decider, CLUSTER, "team-a", "scale", "scale", "deployments", "web", hash, SCALE,
                "{\"replicas\":{\"antes\":1,\"después\":3}}");
    }

    static String anyHash() {
        return UUID.randomUUID().toString();
    }
}
