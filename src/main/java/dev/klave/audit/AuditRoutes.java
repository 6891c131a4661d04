package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import dev.klave.http.Access;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.RouteProvider;
import dev.klave.messages.Message;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** {@code GET /api/control-events} (admin; spec 1 §4 "Audit"). */
public final class AuditRoutes implements RouteProvider {
    /** Spec 1 §8: pages 1 to 10000. */
    static final int LAST_PAGE = 10_000;

    private final ControlEvents events;

    public AuditRoutes(ControlEvents events) {
        this.events = requireNonNull(events, "events is null");
    }

    record EventView(String id, Instant at, String type, Optional<ControlEvent.SubjectRef> actor,
            Optional<ControlEvent.SubjectRef> target, Optional<String> via, Optional<String> reason,
            Optional<String> clientIp, Map<String, String> details) {}

    record PageView(java.util.List<EventView> events, int page, int pageSize, boolean hasMore) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/control-events", Access.ADMIN, request -> {
            ControlEvents.Page page = events.page(page(request));
            return ApiResponse.ok(new PageView(page.events().stream().map(AuditRoutes::view).toList(), page.page(),
                    page.pageSize(), page.hasMore()));
        });
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
}
