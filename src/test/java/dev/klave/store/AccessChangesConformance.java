package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.access.AccessChanges;
import dev.klave.access.Grant;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.credential.Credential;
import dev.klave.oauth.session.AgentSession;
import dev.klave.oauth.session.AgentToken;
import dev.klave.access.Permission;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Every change that can take proxy access away, or change a caller's groups, moves the shared
 * counter (the proxy's cached checks and the stream guard rely on it); changes that cannot, do not.
 */
abstract class AccessChangesConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private AccessChanges changes;
    private JdbiCredentialStore credentials;
    private JdbiGrantStore grants;
    private JdbiClusterStore clusters;
    private JdbiSubjectStore subjects;
    private JdbiAgentSessionStore sessions;
    private JdbiAgentTokenStore tokens;

    @Override
    protected void setUp(Database database) {
        changes = new JdbiAccessChanges(database);
        credentials = new JdbiCredentialStore(database);
        grants = new JdbiGrantStore(database);
        clusters = new JdbiClusterStore(database);
        subjects = new JdbiSubjectStore(database);
        sessions = new JdbiAgentSessionStore(database);
        tokens = new JdbiAgentTokenStore(database);
    }

    private ClusterId storedCluster() {
        ClusterId id = new ClusterId("c-" + SEQUENCE.incrementAndGet());
        clusters.create(new Cluster(id, "C", NOW, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty()));
        return id;
    }

    private Credential storedCredential(SubjectId owner) {
        return storedCredential(owner, Optional.empty());
    }

    private Credential storedCredential(SubjectId owner, Optional<ClusterId> restrictedTo) {
        Credential credential = new Credential(UUID.randomUUID().toString(), UUID.randomUUID().toString(), owner,
                restrictedTo, "n", "", NOW, NOW.plusSeconds(3600), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
        credentials.create(credential);
        return credential;
    }

    private Grant storedGrant(SubjectId subject, ClusterId cluster) {
        Grant grant = new Grant(UUID.randomUUID().toString(), subject, cluster, Tier.VIEW, Scope.ALL, Optional.empty(),
                "", NOW, Optional.empty(), Optional.empty(), Optional.empty());
        grants.create(grant);
        return grant;
    }

    /** Runs the change and says whether the access generation moved forward. */
    private boolean moves(Runnable change) {
        long before = changes.generation();
        change.run();
        return changes.generation() > before;
    }

    @Test
    void revokingACredentialMovesTheCounter() {
        Credential credential = storedCredential(storedPerson("owner"));

        assertThat(moves(() -> credentials.revoke(credential.id(), NOW, Optional.empty(), Optional.empty()))).isTrue();
    }

    @Test
    void revokingEveryCredentialOfASubjectOrOfAClusterMovesTheCounter() {
        SubjectId owner = storedPerson("owner");
        storedCredential(owner);

        assertThat(moves(() -> credentials.revokeAllOf(owner, NOW, "disabled"))).isTrue();
        ClusterId cluster = storedCluster();
        storedCredential(owner, Optional.of(cluster));
        assertThat(moves(() -> credentials.revokeAllRestrictedTo(cluster, NOW, "deleted"))).isTrue();
    }

    @Test
    void disablingASubjectMovesTheCounterAndOtherEditsDoNot() {
        SubjectId person = storedPerson("person");

        assertThat(moves(() -> subjects.update(person, subject -> subject.withDisplayName("New name")))).isFalse();
        assertThat(moves(() -> subjects.update(person, subject -> subject.withDisabledAt(Optional.of(NOW))))).isTrue();
        assertThat(moves(() -> subjects.update(person, subject -> subject.withDisabledAt(Optional.empty())))).isTrue();
    }

    @Test
    void creatingAndRevokingGrantsMovesTheCounter() {
        SubjectId person = storedPerson("person");
        ClusterId cluster = storedCluster();
        Grant[] grant = new Grant[1];

        assertThat(moves(() -> grant[0] = storedGrant(person, cluster))).isTrue();
        assertThat(moves(() -> grants.revoke(grant[0].id(), NOW, "admin"))).isTrue();
    }

    @Test
    void newTokensOrDeletingTheClusterMoveTheCounterAndReconciliationsDoNot() {
        ClusterId cluster = storedCluster();
        storedGrant(storedPerson("person"), cluster);

        assertThat(moves(() -> clusters.recordReconciliation(cluster, NOW, Optional.empty()))).isFalse();
        assertThat(moves(() -> clusters.setSecrets(cluster, "sealed", NOW))).isTrue();
        assertThat(moves(() -> clusters.delete(cluster))).isTrue();
    }

    @Test
    void readingTheCounterChangesNothing() {
        assertThat(changes.generation()).isEqualTo(changes.generation());
    }

    private AgentSession storedSession(SubjectId person) {
        AgentSession session = new AgentSession("s_" + UUID.randomUUID().toString().replace("-", ""), person,
                "https://client.example/meta.json", List.of(new Permission(new ClusterId("c"), Tier.VIEW, Scope.ALL)),
                false, "password", NOW, NOW.plusSeconds(86_400), Optional.empty(), Optional.empty(), Optional.empty());
        sessions.create(session);
        return session;
    }

    @Test
    void anAgentSessionThatEndsMovesTheCounterOnceAndItsUseAndNewTokensDoNot() {
        AgentSession session = storedSession(storedPerson("agent-owner"));

        // Issue 31 item 4: a rotation or a new access token must not wake every replica's stream guard.
        assertThat(moves(() -> tokens.create(new AgentToken(String.format("%064x", SEQUENCE.incrementAndGet()),
                AgentToken.Kind.ACCESS, session.id(), NOW, NOW.plusSeconds(3600), Optional.empty(), Optional.empty(),
                Optional.empty())))).isFalse();
        assertThat(moves(() -> sessions.touch(session.id(), NOW.plusSeconds(60)))).isFalse();
        assertThat(moves(() -> sessions.end(session.id(), NOW.plusSeconds(120), "revocado"))).isTrue();
        assertThat(moves(() -> sessions.end(session.id(), NOW.plusSeconds(180), "otra vez"))).isFalse();
    }

    @Test
    void endingAPersonsSessionsAtOnceMovesTheCounter() {
        SubjectId person = storedPerson("agent-owner-2");
        storedSession(person);
        storedSession(person);

        assertThat(moves(() -> sessions.endAllOf(person, NOW.plusSeconds(60), "cuenta deshabilitada"))).isTrue();
    }
}
