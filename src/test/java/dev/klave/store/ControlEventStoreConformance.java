package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.audit.ControlEvent;
import dev.klave.audit.ControlEventStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link ControlEventStore} must do, whatever the database behind it. */
abstract class ControlEventStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private ControlEventStore store;

    @Override
    protected void setUp(Database database) {
        store = new JdbiControlEventStore(database);
    }

    private static ControlEvent event(String type) {
        return new ControlEvent(UUID.randomUUID().toString(), NOW, type,
                Optional.of(new ControlEvent.SubjectRef(UUID.randomUUID().toString(), "admin")),
                Optional.of(new ControlEvent.SubjectRef(UUID.randomUUID().toString(), "ana")), Optional.of("password"),
                Optional.of("wrong_password"), Optional.of("198.51.100.7"), Map.of("sessions_closed", "2"));
    }

    @Test
    void eventsReadBackWholeNewestFirstEvenWithinOneMillisecond() {
        ControlEvent first = event("login.failure");
        ControlEvent second = event("login.success");
        ControlEvent third = new ControlEvent(UUID.randomUUID().toString(), NOW, "user.disable", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Map.of());
        store.append(first);
        store.append(second);
        store.append(third);

        List<ControlEvent> newest = store.newestFirst(0, 3);

        assertThat(newest).containsExactly(third, second, first);
    }

    @Test
    void pagesAreCutByOffsetAndLimit() {
        for (int i = 0; i < 5; i++) {
            store.append(event("paging." + i));
        }

        assertThat(store.newestFirst(1, 2)).extracting(ControlEvent::type).containsExactly("paging.3", "paging.2");
    }
}
