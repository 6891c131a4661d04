package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The route table tells of completed changes, so open streams are checked against them at once. */
class ApiRoutesTest {
    private final AtomicInteger changes = new AtomicInteger();
    private final ApiRoutes routes = new ApiRoutes(changes::incrementAndGet)
            .get("/api/things", Access.ANONYMOUS, request -> ApiResponse.noContent())
            .post("/api/things/{id}/revoke", Access.ANONYMOUS, request -> ApiResponse.noContent())
            .delete("/api/things/{id}", Access.ANONYMOUS, request -> {
                throw Message.NOT_FOUND.refusal();
            });

    @Test
    void aCompletedWriteIsAnnouncedOnceAfterItsEndpointReturns() throws Exception {
        endpoint("POST", "/api/things/7/revoke").handle(null);

        assertThat(changes).hasValue(1);
    }

    @Test
    void readsAndRefusedWritesAreNotAnnounced() throws Exception {
        endpoint("GET", "/api/things").handle(null);
        Endpoint refused = endpoint("DELETE", "/api/things/7");

        assertThatThrownBy(() -> refused.handle(null)).isInstanceOf(Refusal.class);
        assertThat(changes).hasValue(0);
    }

    private Endpoint endpoint(String method, String path) {
        return ((ApiRoutes.Found) routes.match(method, path)).endpoint();
    }
}
