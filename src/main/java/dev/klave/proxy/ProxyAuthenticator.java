package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Grant;
import dev.klave.access.GrantStore;
import dev.klave.account.Subject;
import dev.klave.account.SubjectStore;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterConnections;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.ClusterStore;
import dev.klave.credential.Credential;
import dev.klave.credential.CredentialStore;
import dev.klave.crypto.SecretToken;
import dev.klave.crypto.TokenKind;
import dev.klave.messages.Message;
import dev.klave.reconcile.DesiredRbac;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The credential checks of spec 1 §5 "Credentials at the proxy", in the specification's order:
 * a well-formed bearer token, known, not revoked, not expired; its owner enabled; the cluster
 * known; the credential not restricted to another cluster; an active grant there; tokens stored.
 */
public final class ProxyAuthenticator {
    private final CredentialStore credentials;
    private final SubjectStore subjects;
    private final ClusterStore clusters;
    private final GrantStore grants;
    private final ClusterConnections connections;
    private final Clock clock;

    public ProxyAuthenticator(CredentialStore credentials, SubjectStore subjects, ClusterStore clusters,
            GrantStore grants, ClusterConnections connections, Clock clock) {
        this.credentials = requireNonNull(credentials, "credentials is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.grants = requireNonNull(grants, "grants is null");
        this.connections = requireNonNull(connections, "connections is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** The credential a request names, checked up to its owner; for audit rows of refused requests too. */
    public Credential credential(Optional<String> authorization) {
        String header = authorization.orElseThrow(Message.TOKEN_MISSING::refusal).strip();
        if (!header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw Message.TOKEN_MISSING.refusal();
        }
        SecretToken token = SecretToken.parse(TokenKind.CREDENTIAL, header.substring(7).strip())
                .orElseThrow(Message.TOKEN_MISSING::refusal);
        return credentials.findByTokenHash(token.hash()).orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
    }

    /** @throws dev.klave.messages.Refusal with the Status the specification gives each failure */
    public ProxyCaller authenticate(Credential credential, ClusterId cluster) {
        Instant now = clock.instant();
        if (credential.revoked()) {
            throw Message.CREDENTIAL_REVOKED.refusal();
        }
        if (credential.expiredAt(now)) {
            throw Message.CREDENTIAL_EXPIRED.refusal();
        }
        Subject owner = subjects.findById(credential.subjectId()).orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
        if (!owner.enabled()) {
            throw Message.ACCOUNT_DISABLED.refusal();
        }
        Cluster registered = clusters.findById(cluster).orElseThrow(Message.CLUSTER_UNKNOWN::refusal);
        if (credential.clusterId().isPresent() && !credential.clusterId().get().equals(cluster)) {
            throw Message.CREDENTIAL_OTHER_CLUSTER.refusal(credential.clusterId().get().value());
        }
        String userName = DesiredRbac.userName(owner);
        List<String> groups = grants.find(Optional.of(owner.id()), Optional.of(cluster), false).stream()
                .filter(grant -> grant.activeAt(now))
                .map(Grant::group)
                .distinct()
                .sorted()
                .toList();
        if (groups.isEmpty()) {
            throw Message.NO_ACTIVE_GRANT_ON_CLUSTER.refusal(userName, cluster.value());
        }
        if (!registered.hasTokens()) {
            throw Message.CLUSTER_WITHOUT_TOKENS_PROXY.refusal();
        }
        return new ProxyCaller(owner, credential, userName, groups, connections.secrets(registered));
    }
}
