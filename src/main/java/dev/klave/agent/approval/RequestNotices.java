package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import dev.klave.messages.Text;
import dev.klave.notify.Kind;
import dev.klave.notify.Notification;
import dev.klave.notify.Notifier;
import dev.klave.config.BaseUrl;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the queue tells people outside Klave (issue 41 §2), each called in the transaction of what
 * it tells: a request waiting (to whoever decides it), a decision (to a person who asked for
 * themselves), access about to end (to its holder). Links lead to the request's page in Klave.
 */
public final class RequestNotices {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
    /** Nothing is told: tests and tools without notifications. */
    public static final RequestNotices NONE = new RequestNotices(Notifier.NONE, null, null, BaseUrl.parse("http://localhost/"));

    private final Notifier notifier;
    private final SubjectStore subjects;
    private final AccessPolicyStore policies;
    private final BaseUrl baseUrl;

    public RequestNotices(Notifier notifier, SubjectStore subjects, AccessPolicyStore policies, BaseUrl baseUrl) {
        this.notifier = requireNonNull(notifier, "notifier is null");
        this.subjects = subjects;
        this.policies = policies;
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
    }

    /** An access request waits: its decider, or the cluster's (administrators and those named), never its requester. */
    void accessWaiting(AccessRequest request) {
        if (subjects == null) {
            return;
        }
        Set<SubjectId> deciders = new LinkedHashSet<>();
        if (request.decider().isPresent()) {
            deciders.add(request.decider().get());
        } else {
            deciders.addAll(notifier.administrators());
            deciders.addAll(policies.find(request.cluster()).deciders());
        }
        deciders.remove(request.actor().subject());
        String title = Text.NOTIFY_ACCESS_WAITING.text(asker(request.actor().subject(), request.byPerson(),
                request.actor().sessionId().isPresent()), tier(request.role()), scope(request.scope()),
                request.cluster().value(), duration(request.minutes()));
        List<Notification.Line> lines = List.of(Notification.Line.quoting(Text.NOTIFY_REASON.text(), request.reason()),
                Notification.Line.of(Text.NOTIFY_EXPIRES.text(WHEN.format(request.expiresAt()))));
        notifier.notify(new Notification(Kind.ACCESS_WAITING, "waiting:" + request.id(), request.createdAt(), title,
                lines, link(request), data(request)), deciders);
    }

    /** An agent's write waits: its person, or administrators for a bot's. */
    void writeWaiting(WriteRequest request) {
        if (subjects == null) {
            return;
        }
        Set<SubjectId> deciders = new LinkedHashSet<>(request.decider().map(Set::of)
                .orElseGet(notifier::administrators));
        String object = request.resource() + "/" + request.name()
                + (request.namespace().isEmpty() ? "" : " en " + request.namespace());
        String title = Text.NOTIFY_WRITE_WAITING.text(asker(request.actor().subject(), false,
                request.actor().sessionId().isPresent()), request.verb(), object, request.cluster().value());
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("request", request.id());
        data.put("cluster", request.cluster().value());
        data.put("namespace", request.namespace());
        data.put("verb", request.verb());
        data.put("resource", request.resource());
        data.put("name", request.name());
        data.put("tool", request.tool());
        notifier.notify(new Notification(Kind.WRITE_WAITING, "waiting:" + request.id(), request.createdAt(), title,
                List.of(Notification.Line.of(Text.NOTIFY_EXPIRES.text(WHEN.format(request.expiresAt())))),
                URI.create(RequestPages.decide(baseUrl, request.id())), data), deciders);
    }

    /** A person's own request decided: to them (and the destinations that want decisions). */
    void decided(AccessRequest request, String by, Optional<String> comment, Instant at) {
        if (subjects == null || !request.byPerson()) {
            return;
        }
        String title = request.status() == AccessStatus.APPROVED
                ? Text.NOTIFY_APPROVED.text(by, tier(request.role()), scope(request.scope()), request.cluster().value(),
                        WHEN.format(request.grantExpiresAt().orElse(at)))
                : Text.NOTIFY_DENIED.text(by, tier(request.role()), scope(request.scope()), request.cluster().value());
        List<Notification.Line> lines = new ArrayList<>();
        comment.ifPresent(text -> lines.add(Notification.Line.quoting(Text.NOTIFY_COMMENT.text(), text)));
        Map<String, Object> data = data(request);
        data.put("status", request.status().code());
        data.put("decided_by", by);
        notifier.notify(new Notification(Kind.DECIDED, "decided:" + request.id(), at, title, lines, link(request),
                data), Set.of(request.actor().subject()));
    }

    /** Access from a person's own request ends in 10 minutes: to them. */
    void ending(AccessRequest request, Instant at) {
        if (subjects == null || !request.byPerson()) {
            return;
        }
        Instant end = request.grantExpiresAt().orElseThrow();
        String title = Text.NOTIFY_ENDING.text(tier(request.role()), scope(request.scope()), request.cluster().value(),
                TIME.format(end));
        Map<String, Object> data = data(request);
        data.put("ends_at", end.toString());
        notifier.notify(new Notification(Kind.ACCESS_ENDING, "ending:" + request.id(), at, title,
                List.of(Notification.Line.of(Text.NOTIFY_ENDING_LINE.text())), link(request), data),
                Set.of(request.actor().subject()));
    }

    private URI link(AccessRequest request) {
        return URI.create(RequestPages.access(baseUrl, request.id()));
    }

    private static Map<String, Object> data(AccessRequest request) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("request", request.id());
        data.put("origin", request.course().origin().code());
        data.put("cluster", request.cluster().value());
        data.put("tier", request.role().code());
        data.put("scope", request.scope().value());
        data.put("minutes", request.minutes());
        return data;
    }

    private String asker(SubjectId id, boolean person, boolean delegated) {
        Optional<Subject> subject = subjects.findById(id);
        String login = subject.map(found -> found.login().value()).orElse(id.value());
        if (person) {
            return login;
        }
        return subject.filter(found -> found.kind() == SubjectKind.BOT).isPresent() || !delegated
                ? Text.NOTIFY_ASKER_BOT.text(login) : Text.NOTIFY_ASKER_AGENT.text(login);
    }

    static String tier(Tier tier) {
        return switch (tier) {
            case VIEW -> Text.NOTIFY_TIER_VIEW.text();
            case EDIT -> Text.NOTIFY_TIER_EDIT.text();
            case ADMIN -> Text.NOTIFY_TIER_ADMIN.text();
            case CLUSTER_ADMIN -> Text.NOTIFY_TIER_CLUSTER_ADMIN.text();
        };
    }

    static String scope(Scope scope) {
        return scope.wholeCluster() ? Text.NOTIFY_WHOLE_CLUSTER.text() : Text.NOTIFY_NAMESPACE.text(scope.value());
    }

    static String duration(int minutes) {
        return minutes % 60 == 0 && minutes >= 120 ? Text.NOTIFY_HOURS.text(minutes / 60)
                : Text.NOTIFY_MINUTES.text(minutes);
    }
}
