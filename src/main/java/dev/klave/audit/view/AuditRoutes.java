package dev.klave.audit.view;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.AuditCursor;
import dev.klave.audit.AuditFilter;
import dev.klave.audit.AuditRow;
import dev.klave.audit.Channel;
import dev.klave.audit.ControlEvent;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventFilter;
import dev.klave.audit.FeedPosition;
import dev.klave.audit.FeedStore;
import dev.klave.http.Access;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.RouteProvider;
import dev.klave.messages.Message;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code GET /api/control-events} (admin; spec 1 §4 "Audit"). */
public final class AuditRoutes implements RouteProvider {
    /** Spec 1 §8: pages 1 to 10000. */
    static final int LAST_PAGE = 10_000;

    private final ControlEvents events;
    private final AuditQueries audit;
    private final FeedStore feed;
    private final java.util.function.UnaryOperator<String> subjectIds;

    /**
     * @param subjectIds the id of the subject a {@code subject} parameter names by its id or its
     *     login; refuses (404) one that names nobody, as the other listings do
     */
    private final java.time.Clock clock;
    private final RequestLinks links;

    /**
     * Which access request (issue 41) gave the access a request was made under: an approved request
     * of that subject on that cluster whose access ran at that moment.
     */
    @FunctionalInterface
    public interface RequestLinks {
        Optional<String> at(String subjectId, String cluster, Instant at);
    }


    public AuditRoutes(ControlEvents events, AuditQueries audit, FeedStore feed,
            java.util.function.UnaryOperator<String> subjectIds, java.time.Clock clock) {
        this(events, audit, feed, subjectIds, (subject, cluster, at) -> Optional.empty(), clock);
    }

    /** @param links the access request a row's request was made under, if any (issue 41) */
    public AuditRoutes(ControlEvents events, AuditQueries audit, FeedStore feed,
            java.util.function.UnaryOperator<String> subjectIds, RequestLinks links, java.time.Clock clock) {
        this.links = requireNonNull(links, "links is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.events = requireNonNull(events, "events is null");
        this.audit = requireNonNull(audit, "audit is null");
        this.feed = java.util.Objects.requireNonNull(feed, "feed is null");
        this.subjectIds = requireNonNull(subjectIds, "subjectIds is null");
    }

    record AuditView(String id, Instant at, Optional<String> subjectId, Optional<String> subject,
            Optional<String> credential, String cluster, Optional<String> namespace, String verb,
            Optional<String> resource, Optional<String> name, String path, Optional<Integer> status,
            Optional<String> error, Optional<String> clientIp, Optional<Instant> completedAt, String channel,
            Optional<String> tool, Optional<String> session, boolean dryRun) {}

    record AuditPage(java.util.List<AuditView> events, int page, int pageSize, boolean hasMore,
            Optional<String> nextCursor, long total, boolean totalCapped) {}

    /** The filters of the listing and the export (spec 1 §4 "Audit", spec 3 "Tool rules" 3, issue 32). */
    private static final java.util.Set<String> FILTERS = java.util.Set.of("subject", "cluster", "namespace", "verb",
            "resource", "credential", "from", "to", "include_discovery", "channel", "tool", "session", "status",
            "dry_run");
    private static final java.util.Set<String> LISTING = union(FILTERS, "page", "cursor");
    private static final java.util.Set<String> EXPORT = union(FILTERS, "format", "after");

    private static java.util.Set<String> union(java.util.Set<String> names, String... more) {
        java.util.Set<String> all = new java.util.HashSet<>(names);
        all.addAll(java.util.List.of(more));
        return java.util.Set.copyOf(all);
    }

    record EventView(String id, Instant at, String type, Optional<ControlEvent.SubjectRef> actor,
            Optional<ControlEvent.SubjectRef> target, Optional<String> via, Optional<String> reason,
            Optional<String> clientIp, Map<String, Object> details) {}

    record PageView(java.util.List<EventView> events, int page, int pageSize, boolean hasMore,
            Optional<String> nextCursor) {}

    /** One entry of the feed: {@code request} (an ended request, as the listing shows it) or {@code event}. */
    record FeedEntryView(String position, String type, Optional<AuditView> request, Optional<EventView> event) {}

    record FeedView(java.util.List<FeedEntryView> entries, String nextCursor) {}

    /** Requests over time, per bucket of {@code bucketSeconds}; empty buckets left out. */
    record ActivityView(long bucketSeconds, Instant from, Instant to, java.util.List<BucketView> buckets) {}

    record BucketView(Instant start, long requests, long refused, long failed) {}

    /** Entries a feed read answers by default, and at most (issue 32). */
    static final int FEED_DEFAULT = 500;
    static final int FEED_MAX = 5_000;

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/control-events", Access.ADMIN, request -> {
            request.refuseUnknownQuery(java.util.Set.of("type", "subject", "from", "to", "page", "cursor"));
            Optional<String> after = request.queryParameter("cursor").map(AuditRoutes::decodeEventCursor);
            ControlEvents.Page page = events.page(new EventFilter(request.queryParameter("type").filter(t -> !t.isBlank()),
                    request.queryParameter("subject").filter(t -> !t.isBlank()).map(subjectIds), time(request, "from"),
                    time(request, "to")), page(request), after);
            return ApiResponse.ok(new PageView(page.events().stream().map(AuditRoutes::view).toList(), page.page(),
                    page.pageSize(), page.hasMore(), page.nextCursor().map(AuditRoutes::encodeEventCursor)));
        }).get("/api/audit/feed", Access.ADMIN, request -> {
            request.refuseUnknownQuery(java.util.Set.of("after", "limit"));
            FeedPosition after = request.queryParameter("after").map(FeedPosition::decode).orElse(FeedPosition.START);
            int limit = request.queryParameter("limit").map(AuditRoutes::feedLimit).orElse(FEED_DEFAULT);
            java.util.List<FeedStore.Entry> entries = feed.after(after, limit);
            return ApiResponse.ok(new FeedView(entries.stream().map(AuditRoutes::view).toList(),
                    (entries.isEmpty() ? after : entries.getLast().position()).encode()));
        }).get("/api/audit", Access.SESSION, request -> {
            request.refuseUnknownQuery(LISTING);
            Optional<AuditCursor> after = request.queryParameter("cursor").map(AuditCursor::decode);
            AuditQueries.Page page = audit.page(filter(request), page(request), after, viewer(request));
            return ApiResponse.ok(new AuditPage(page.events().stream().map(AuditRoutes::view).toList(), page.page(),
                    page.pageSize(), page.hasMore(), page.nextCursor(), page.total(), page.totalCapped()));
        }).get("/api/audit/activity", Access.SESSION, request -> {
            // The listing's filters, over a range that defaults to the last 24 hours (issue 40: the chart).
            request.refuseUnknownQuery(FILTERS);
            Instant to = time(request, "to").orElse(clock.instant());
            Instant from = time(request, "from").orElse(to.minus(java.time.Duration.ofDays(1)));
            if (!from.isBefore(to)) {
                throw Message.FILTER_INVALID.refusal("from", "anterior a to");
            }
            AuditQueries.Activity activity = audit.activity(filter(request), from, to, viewer(request));
            return ApiResponse.ok(new ActivityView(activity.bucket().toSeconds(), activity.from(), activity.to(),
                    activity.buckets().stream().map(bucket -> new BucketView(bucket.start(), bucket.requests(),
                            bucket.refused(), bucket.failed())).toList()));
        }).get("/api/audit/export", Access.SESSION, request -> {
            request.refuseUnknownQuery(EXPORT);
            AuditExport.Format format = AuditExport.Format.named(request.queryParameter("format").orElse("csv"));
            AuditFilter filter = filter(request);
            AuditQueries.Viewer viewer = viewer(request);
            Optional<AuditCursor> after = request.queryParameter("after").map(id -> audit.resumeAfter(id, viewer));
            // Streamed (issue 32): any size, one batch in memory, the first bytes at once.
            return ApiResponse.streamed(format.contentType(), out -> audit.export(filter, after, viewer, format,
                    out::write)).withHeader("Content-Disposition", "attachment; filename=\"" + format.fileName()
                            + "\"");
        }).get("/api/audit/{id}", Access.SESSION, request -> {
            AuditView row = view(audit.one(request.pathParameter("id"), viewer(request)));
            // One row's page: the row, and the access request it was made under (null when none).
            com.fasterxml.jackson.databind.node.ObjectNode detail = dev.klave.http.Json.tree(row);
            detail.put("access_request", row.subjectId()
                    .flatMap(subject -> links.at(subject, row.cluster(), row.at())).orElse(null));
            return ApiResponse.ok(detail);
        });
    }

    private AuditFilter filter(ApiRequest request) {
        return new AuditFilter(request.queryParameter("subject").map(subjectIds), request.queryParameter("cluster"),
                request.queryParameter("namespace"), request.queryParameter("verb"), request.queryParameter("resource"),
                request.queryParameter("credential"), time(request, "from"), time(request, "to"),
                request.queryParameter("include_discovery").map("true"::equals).orElse(false), channel(request),
                request.queryParameter("tool"), request.queryParameter("session"), status(request), dryRun(request));
    }

    /** The {@code dry_run} filter: {@code true} (dry runs only) or {@code false} (none); anything else is 400. */
    private static Optional<Boolean> dryRun(ApiRequest request) {
        return request.queryParameter("dry_run").map(text -> switch (text) {
            case "true" -> true;
            case "false" -> false;
            default -> throw Message.FILTER_INVALID.refusal("dry_run", "true o false");
        });
    }

    /** The {@code status} filter: an HTTP status, 100 to 599. */
    private static Optional<Integer> status(ApiRequest request) {
        return request.queryParameter("status").map(text -> {
            if (text.matches("[1-5][0-9][0-9]")) {
                return Integer.parseInt(text);
            }
            throw Message.STATUS_FILTER_INVALID.refusal();
        });
    }

    /** The {@code channel} filter: {@code proxy} or {@code tool}; anything else is 400. */
    private static Optional<Channel.Kind> channel(ApiRequest request) {
        return request.queryParameter("channel")
                .map(text -> Channel.Kind.named(text).orElseThrow(Message.CHANNEL_INVALID::refusal));
    }

    private static Optional<Instant> time(ApiRequest request, String name) {
        return request.queryParameter(name).map(text -> {
            try {
                return java.time.OffsetDateTime.parse(text).toInstant();
            } catch (java.time.format.DateTimeParseException e) {
                throw Message.TIME_INVALID.refusal(name);
            }
        });
    }

    private static FeedEntryView view(FeedStore.Entry entry) {
        return new FeedEntryView(entry.position().encode(), entry.request().isPresent() ? "request" : "event",
                entry.request().map(AuditRoutes::view), entry.event().map(AuditRoutes::view));
    }

    /** An event's id as the control events listing's opaque cursor. */
    private static String encodeEventCursor(String id) {
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(("event:" + id)
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** The event id a cursor names; 400 for anything {@link #encodeEventCursor} did not write. */
    private static String decodeEventCursor(String text) {
        try {
            String plain = new String(java.util.Base64.getUrlDecoder().decode(text),
                    java.nio.charset.StandardCharsets.US_ASCII);
            if (plain.startsWith("event:") && plain.substring(6).matches("[0-9a-f-]{36}")) {
                return plain.substring(6);
            }
        } catch (IllegalArgumentException e) {
            // Falls through to the refusal.
        }
        throw Message.CURSOR_INVALID.refusal();
    }

    private static int feedLimit(String text) {
        try {
            int limit = Integer.parseInt(text);
            if (limit >= 1 && limit <= FEED_MAX) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // Falls through to the refusal.
        }
        throw Message.FEED_LIMIT_INVALID.refusal(FEED_MAX);
    }

    static AuditView view(AuditRow row) {
        AuditRow.Actor actor = row.actor();
        AuditRow.Request request = row.request();
        Optional<AuditRow.Outcome> outcome = row.outcome();
        return new AuditView(row.id(), row.at(), actor.subjectId(), actor.subjectLogin(), actor.credentialId(),
                row.cluster(), request.namespace(), request.verb(), request.resource(), request.name(), request.path(),
                outcome.map(AuditRow.Outcome::status), outcome.flatMap(AuditRow.Outcome::error), actor.clientIp(),
                outcome.map(AuditRow.Outcome::completedAt), request.channel().kind().wire(), request.channel().tool(),
                request.channel().session(), request.dryRun() == AuditRow.DryRun.ALL);
    }

    /** The {@code page} query parameter: 1 when absent, 400 outside 1..10000. */
    static int page(ApiRequest request) {
        Optional<String> text = request.queryParameter("page");
        if (text.isEmpty()) {
            return 1;
        }
        try {
            int page = Integer.parseInt(text.get());
            if (page >= 1 && page <= LAST_PAGE) {
                return page;
            }
        } catch (NumberFormatException e) {
            // Falls through to the refusal.
        }
        throw Message.PAGE_INVALID.refusal();
    }

    private static EventView view(ControlEvent event) {
        return new EventView(event.id(), event.at(), event.type(), event.actor(), event.target(), event.via(),
                event.reason(), event.clientIp(), event.details());
    }

    private static AuditQueries.Viewer viewer(ApiRequest request) {
        return new AuditQueries.Viewer(request.session().subjectId(), request.session().admin());
    }
}
