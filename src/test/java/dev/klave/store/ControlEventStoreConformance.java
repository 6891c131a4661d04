package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.audit.ControlEvent;
import dev.klave.audit.ControlEventStore;
import dev.klave.audit.EventFilter;
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

    @Test
    void eventsAreFilteredByTypeOrItsPrefixByPersonAndByTime() {
        String kind = "filter" + UUID.randomUUID().toString().substring(0, 8);
        String ana = UUID.randomUUID().toString();
        ControlEvent early = new ControlEvent(UUID.randomUUID().toString(), NOW.minusSeconds(3600), kind + ".create",
                Optional.empty(), Optional.of(new ControlEvent.SubjectRef(ana, "ana")), Optional.empty(),
                Optional.empty(), Optional.empty(), Map.of("structured", List.of("a", "b"), "flag", true));
        ControlEvent late = new ControlEvent(UUID.randomUUID().toString(), NOW, kind + ".delete",
                Optional.of(new ControlEvent.SubjectRef(ana, "ana")), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Map.of());
        ControlEvent other = event(kind + ".create");
        store.append(early);
        store.append(late);
        store.append(other);

        assertThat(store.newestFirst(new EventFilter(Optional.of(kind + "."), Optional.empty(), Optional.empty(),
                Optional.empty()), 0, 10)).containsExactly(other, late, early);
        assertThat(store.newestFirst(new EventFilter(Optional.of(kind + ".create"), Optional.of(ana),
                Optional.empty(), Optional.empty()), 0, 10)).containsExactly(early);
        assertThat(store.newestFirst(new EventFilter(Optional.of(kind + "."), Optional.of(ana),
                Optional.of(NOW.minusSeconds(60)), Optional.empty()), 0, 10)).containsExactly(late);
        assertThat(store.newestFirst(new EventFilter(Optional.of(kind + "."), Optional.empty(), Optional.empty(),
                Optional.of(NOW.minusSeconds(60))), 0, 10)).containsExactly(early);
        assertThat(store.count(kind + ".create", Optional.empty(), NOW.minusSeconds(7200))).isEqualTo(2);
        assertThat(store.count(kind + ".create", Optional.of("password"), NOW.minusSeconds(7200))).isEqualTo(1);
    }
}
