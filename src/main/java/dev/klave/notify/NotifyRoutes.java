package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.http.Access;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.RouteProvider;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code /api/notifications/…} for administrators (issue 41, not in the specification): the kinds of
 * notification and whether e-mail is on; the webhook destinations (a JSON one's signing secret in
 * the answer that creates it, and never again); a test; each destination's delivery log.
 */
public final class NotifyRoutes implements RouteProvider {
    private final Destinations destinations;
    private final boolean email;

    public NotifyRoutes(Destinations destinations, boolean email) {
        this.destinations = requireNonNull(destinations, "destinations is null");
        this.email = email;
    }

    record NewDestination(String name, String format, String url, List<String> kinds) {}

    record KindView(String code, String description) {}

    record Catalogue(List<KindView> kinds, boolean email) {}

    record DestinationView(String id, String name, String format, String address, List<String> kinds,
            Instant createdAt, Optional<Instant> lastAttemptAt, Optional<Integer> lastStatus, Optional<String> lastError,
            Optional<Instant> lastDeliveredAt, Optional<Instant> failingSince) {}

    /** The answer to a creation: the view, and a JSON destination's secret, shown this once. */
    record Created(DestinationView destination, Optional<String> secret) {}

    record DeliveryView(String id, String kind, Instant createdAt, int attempts, Optional<Instant> deliveredAt,
            Optional<Instant> gaveUpAt, Optional<Instant> nextAttemptAt, Optional<Integer> lastStatus,
            Optional<String> lastError) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/notifications/kinds", Access.ADMIN, request -> ApiResponse.ok(new Catalogue(
                        Arrays.stream(Kind.values()).map(kind -> new KindView(kind.code(), kind.description())).toList(),
                        email)))
                .get("/api/notifications/destinations", Access.ADMIN, request -> ApiResponse.ok(
                        destinations.all().stream().map(NotifyRoutes::view).toList()))
                .post("/api/notifications/destinations", Access.ADMIN, request -> {
                    NewDestination body = request.json(NewDestination.class);
                    Destination made = destinations.create(new Destinations.Request(body.name(), body.format(),
                            body.url(), body.kinds()), Principal.of(request));
                    return ApiResponse.created(new Created(view(made), made.secret()));
                })
                .delete("/api/notifications/destinations/{id}", Access.ADMIN, request -> {
                    destinations.delete(request.pathParameter("id"), Principal.of(request));
                    return ApiResponse.noContent();
                })
                .post("/api/notifications/destinations/{id}/test", Access.ADMIN, request -> {
                    destinations.test(request.pathParameter("id"), Principal.of(request));
                    return ApiResponse.noContent();
                })
                .get("/api/notifications/destinations/{id}/deliveries", Access.ADMIN, request -> ApiResponse.ok(
                        destinations.log(request.pathParameter("id")).stream().map(NotifyRoutes::view).toList()));
    }

    private static DestinationView view(Destination destination) {
        Destination.Delivery last = destination.last();
        return new DestinationView(destination.id(), destination.name(), destination.format().code(),
                destination.urlShown(), destination.kinds().stream().map(Kind::code).sorted().toList(),
                destination.createdAt(), last.attemptAt(), last.status(), last.error(), last.deliveredAt(),
                destination.failingSince());
    }

    private static DeliveryView view(Outbox.Row row) {
        boolean open = row.deliveredAt().isEmpty() && row.gaveUpAt().isEmpty();
        return new DeliveryView(row.id(), row.kind().code(), row.createdAt(), row.attempts(), row.deliveredAt(),
                row.gaveUpAt(), open ? Optional.of(row.nextAttemptAt()) : Optional.empty(), row.lastStatus(),
                row.lastError());
    }
}
