package dev.klave.credential;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Grant;
import dev.klave.access.Authority;
import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.audit.Via;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.ClusterStore;
import dev.klave.config.BaseUrl;
import dev.klave.crypto.SecretToken;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.crypto.TokenKind;
import dev.klave.messages.Message;
import dev.klave.messages.Text;
import dev.klave.storage.Keyset;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Issuing, listing and revoking credentials (spec 1 §4 "Credentials"). */
public final class Credentials {
    private final Transactions transactions;
    private final CredentialStore credentials;
    private final SubjectStore subjects;
    private final ClusterStore clusters;
    private final Authority authority;
    private final SecretTokenGenerator tokens;
    private final ControlEvents events;
    private final Duration maxPersonTtl;
    private final BaseUrl baseUrl;
    private final Optional<String> kubeconfigCa;
    private final Clock clock;

    /** @param kubeconfigCa base64 of the PEM CA for Klave's own certificate, written into kubeconfigs */
    public Credentials(Transactions transactions, CredentialStore credentials, SubjectStore subjects,
            ClusterStore clusters, Authority authority, SecretTokenGenerator tokens, ControlEvents events,
            Duration maxPersonTtl, BaseUrl baseUrl, Optional<String> kubeconfigCa, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.credentials = requireNonNull(credentials, "credentials is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.authority = requireNonNull(authority, "authority is null");
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.events = requireNonNull(events, "events is null");
        this.maxPersonTtl = requireNonNull(maxPersonTtl, "maxPersonTtl is null");
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
        this.kubeconfigCa = requireNonNull(kubeconfigCa, "kubeconfigCa is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** What the caller asked for. */
    public record Request(String ttl, Optional<String> name, Optional<String> note, Optional<String> clusterId,
            Optional<String> subjectId) {}

    public IssuedCredential issue(Request request, Principal caller, Optional<Via> via) {
        Duration ttl = Ttl.parse(request.ttl());
        Subject owner = owner(request.subjectId(), caller);
        if (!owner.enabled()) {
            throw Message.ACCOUNT_DISABLED_CONFLICT.refusal();
        }
        if (owner.kind() == SubjectKind.PERSON && ttl.compareTo(maxPersonTtl) > 0) {
            throw Message.TTL_TOO_LONG.refusal(Ttl.format(maxPersonTtl));
        }
        Optional<ClusterId> restricted = request.clusterId().filter(id -> !id.isBlank()).map(this::cluster);
        String name = request.name().map(String::strip).filter(text -> !text.isEmpty()).orElse("kubectl");
        String note = request.note().map(String::strip).orElse("");
        return issueTo(owner, ttl, restricted, name, note, Optional.of(caller), via);
    }

    /**
     * A credential for {@code bot} valid on every cluster where it holds an active grant, issued
     * by the CI exchange (spec 1 §4 "CI exchange rules" 4) rather than by a person. Joins the
     * caller's transaction, so the exchange can spend the ID token in the same one.
     */
    public IssuedCredential issueForBot(Subject bot, Duration ttl, String name, String note, Via via) {
        if (bot.kind() != SubjectKind.BOT || !bot.enabled()) {
            throw new IllegalArgumentException("only an enabled bot gets exchange credentials");
        }
        return issueTo(bot, ttl, Optional.empty(), name, note, Optional.empty(), Optional.of(via));
    }

    /** The clusters where {@code subject} holds an active grant now, sorted by id. */
    public List<ClusterId> reachableNow(SubjectId subject) {
        return reachable(subject, Optional.empty(), clock.instant());
    }

    private IssuedCredential issueTo(Subject owner, Duration ttl, Optional<ClusterId> restricted, String name,
            String note, Optional<Principal> caller, Optional<Via> via) {
        Instant now = clock.instant();
        List<ClusterId> reachable = reachable(owner.id(), restricted, now);
        if (reachable.isEmpty()) {
            throw Message.NO_ACTIVE_GRANTS.refusal();
        }
        SecretToken token = tokens.generate(TokenKind.CREDENTIAL);
        Credential credential = new Credential(UUID.randomUUID().toString(), token.hash(), owner.id(), restricted,
                name, note, now, now.plus(ttl), caller.map(principal -> principal.subjectId().value()),
                Optional.empty(), Optional.empty(), Optional.empty());
        transactions.inTransaction(() -> {
            credentials.create(credential);
            ControlEvents.Draft event = events.event(EventType.CREDENTIAL_ISSUE).actor(caller).target(owner)
                    .details(Map.of("credential", credential.id(), "ttl", Ttl.format(ttl),
                            "cluster", restricted.map(ClusterId::value).orElse("*")));
            via.ifPresent(event::via);
            event.record();
            return null;
        });
        String user = "klave-" + owner.login().value();
        return new IssuedCredential(credential, token.reveal(),
                Kubeconfig.render(baseUrl, kubeconfigCa, user, reachable, token.reveal()), reachable);
    }

    /** The clusters where the owner holds an active grant, or just the restricted one if it does. */
    private List<ClusterId> reachable(SubjectId owner, Optional<ClusterId> restricted, Instant now) {
        return authority.inForce(owner, restricted).stream()
                .map(Grant::clusterId)
                .distinct()
                .sorted(java.util.Comparator.comparing(ClusterId::value))
                .toList();
    }

    private Subject owner(Optional<String> subjectId, Principal caller) {
        if (subjectId.isEmpty() || subjectId.get().equals(caller.subjectId().value())) {
            return subjects.findById(caller.subjectId()).orElseThrow(Message.SESSION_INVALID::refusal);
        }
        if (!caller.admin()) {
            throw Message.OTHERS_CREDENTIALS.refusal();
        }
        try {
            return subjects.findById(new SubjectId(subjectId.get())).orElseThrow(Message.USER_NOT_FOUND::refusal);
        } catch (IllegalArgumentException e) {
            throw Message.USER_NOT_FOUND.refusal();
        }
    }

    private ClusterId cluster(String id) {
        return clusters.existing(id);
    }

    /**
     * Up to {@code limit} credentials matching {@code filter}, newest first, after {@code after}:
     * everyone's for an administrator, one's own for anyone else (asking for another's is refused).
     */
    public List<ListedCredential> list(Principal caller, CredentialFilter filter, Optional<Keyset> after, int limit) {
        if (caller.admin()) {
            return credentials.list(filter, clock.instant(), after, limit);
        }
        if (filter.subject().filter(asked -> !asked.equals(caller.subjectId())).isPresent()) {
            throw Message.OTHERS_CREDENTIALS.refusal();
        }
        return credentials.list(filter.ofSubject(caller.subjectId()), clock.instant(), after, limit);
    }

    /** The credentials {@code ids} name that {@code caller} may see: an administrator any, a person their own. */
    public List<ListedCredential> named(Principal caller, List<String> ids) {
        return credentials.findListed(ids).stream()
                .filter(row -> caller.admin() || row.credential().subjectId().equals(caller.subjectId()))
                .toList();
    }

    /** Revokes; the owner or an administrator only. Revoking twice is harmless. */
    public Credential revoke(String id, Optional<String> reason, Principal caller) {
        Credential credential = credentials.findById(id).orElseThrow(Message.NOT_FOUND::refusal);
        if (!caller.admin() && !credential.subjectId().equals(caller.subjectId())) {
            throw Message.OTHERS_CREDENTIALS.refusal();
        }
        Optional<String> trimmed = reason.map(String::strip).filter(text -> !text.isEmpty());
        transactions.inTransaction(() -> {
            if (credentials.revoke(id, clock.instant(), Optional.of(caller.subjectId().value()), trimmed)) {
                Subject owner = subjects.findById(credential.subjectId()).orElseThrow();
                events.event(EventType.CREDENTIAL_REVOKE).actor(caller).target(owner)
                        .details(Map.of("credential", id, "reason", trimmed.orElse(""))).record();
            }
            return null;
        });
        return credentials.findById(id).orElseThrow();
    }

    /** Disabling a subject revokes its credentials in the same transaction (spec 1 §3). */
    public void revokeAllOf(SubjectId subject, Instant now) {
        credentials.revokeAllOf(subject, now, Text.REVOKED_ACCOUNT_DISABLED.text());
    }

    /** Deleting a cluster revokes the credentials restricted to it (spec 1 §3). */
    public void revokeAllRestrictedTo(ClusterId cluster) {
        credentials.revokeAllRestrictedTo(cluster, clock.instant(), Text.REVOKED_CLUSTER_DELETED.text());
    }
}
