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
        // Real types (a prefix names the known types it starts), one person of this test's own.
        String ana = UUID.randomUUID().toString();
        ControlEvent early = new ControlEvent(UUID.randomUUID().toString(), NOW.minusSeconds(3600), "grant.create",
                Optional.empty(), Optional.of(new ControlEvent.SubjectRef(ana, "ana")), Optional.empty(),
                Optional.empty(), Optional.empty(), Map.of("structured", List.of("a", "b"), "flag", true));
        ControlEvent late = new ControlEvent(UUID.randomUUID().toString(), NOW, "grant.revoke",
                Optional.of(new ControlEvent.SubjectRef(ana, "ana")), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Map.of());
        ControlEvent other = event("grant.create");
        store.append(early);
        store.append(late);
        store.append(other);

        assertThat(store.newestFirst(filter("grant.", null, null, null), 0, 10))
                .containsSubsequence(other, late, early);
        assertThat(store.newestFirst(filter("grant.", ana, null, null), 0, 10)).containsExactly(late, early);
        assertThat(store.newestFirst(filter("grant.create", ana, null, null), 0, 10)).containsExactly(early);
        assertThat(store.newestFirst(filter(null, ana, null, null), 0, 10)).containsExactly(late, early);
        assertThat(store.newestFirst(filter("grant.", ana, NOW.minusSeconds(60), null), 0, 10)).containsExactly(late);
        assertThat(store.newestFirst(filter(null, ana, null, NOW.minusSeconds(60)), 0, 10)).containsExactly(early);
        assertThat(store.newestFirst(filter("gra", ana, null, null), 0, 10)).isEmpty();
        assertThat(store.newestFirst(filter("nothing.", null, null, null), 0, 10)).isEmpty();
        assertThat(store.count("grant.create", Optional.empty(), NOW.minusSeconds(7200))).isGreaterThanOrEqualTo(2);
    }

    @Test
    void countsAreByTypeViaAndTime() {
        store.append(event("oidc.link"));
        store.append(new ControlEvent(UUID.randomUUID().toString(), NOW, "oidc.link", Optional.empty(),
                Optional.empty(), Optional.of("forge"), Optional.empty(), Optional.empty(), Map.of()));
        store.append(new ControlEvent(UUID.randomUUID().toString(), NOW.minusSeconds(7201), "oidc.link",
                Optional.empty(), Optional.empty(), Optional.of("password"), Optional.empty(), Optional.empty(),
                Map.of()));

        assertThat(store.count("oidc.link", Optional.empty(), NOW.minusSeconds(7200))).isEqualTo(2);
        assertThat(store.count("oidc.link", Optional.of("password"), NOW.minusSeconds(7200))).isEqualTo(1);
    }

    @Test
    void aPersonWhoIsBothActorAndTargetIsListedOnce() {
        String ana = UUID.randomUUID().toString();
        ControlEvent own = new ControlEvent(UUID.randomUUID().toString(), NOW, "user.password_change",
                Optional.of(new ControlEvent.SubjectRef(ana, "ana")), Optional.of(new ControlEvent.SubjectRef(ana, "ana")),
                Optional.empty(), Optional.empty(), Optional.empty(), Map.of());
        store.append(own);

        assertThat(store.newestFirst(filter(null, ana, null, null), 0, 10)).containsExactly(own);
        assertThat(store.newestFirst(filter("user.", ana, null, null), 0, 10)).containsExactly(own);
    }

    /**
     * A prefix and a person are each several index walks merged (issue 32): pages by number and by
     * cursor come out newest first across them, none twice, none missing — the merge's own order,
     * not each walk's.
     */
    @Test
    void mergedListingsPageInTimeOrderByNumberAndByCursor() {
        String ana = UUID.randomUUID().toString();
        String[] types = {"user.create", "user.update", "user.disable", "user.update", "user.enable", "user.create",
            "user.update"};
        List<ControlEvent> written = new java.util.ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            // Later than any other test's events, so the prefix alone lists these first; ana as
            // actor or as target, alternately; two in one millisecond.
            Instant at = NOW.plusSeconds(86_400 + Math.min(i, 5));
            ControlEvent.SubjectRef her = new ControlEvent.SubjectRef(ana, "ana");
            ControlEvent.SubjectRef admin = new ControlEvent.SubjectRef(UUID.randomUUID().toString(), "admin");
            ControlEvent event = new ControlEvent(UUID.randomUUID().toString(), at, types[i],
                    Optional.of(i % 2 == 0 ? her : admin), Optional.of(i % 2 == 0 ? admin : her), Optional.empty(),
                    Optional.empty(), Optional.empty(), Map.of());
            store.append(event);
            written.add(0, event);
        }
        for (EventFilter filter : List.of(filter("user.", null, null, null), filter(null, ana, null, null),
                filter("user.", ana, null, null))) {
            List<ControlEvent> byNumber = new java.util.ArrayList<>();
            List<ControlEvent> byCursor = new java.util.ArrayList<>();
            for (int page = 0; page < 3; page++) {
                byNumber.addAll(store.newestFirst(filter, page * 3, 3));
                Optional<String> after = byCursor.isEmpty() ? Optional.empty() : Optional.of(byCursor.getLast().id());
                byCursor.addAll(store.newestFirst(filter, after, 0, 3));
            }
            assertThat(byNumber.subList(0, types.length)).as(filter.toString()).isEqualTo(written);
            assertThat(byCursor.subList(0, types.length)).as(filter.toString()).isEqualTo(written);
        }
    }

    @Test
    void aCursorThatNamesNoEventGivesNothing() {
        store.append(event("user.update"));

        assertThat(store.newestFirst(EventFilter.ALL, Optional.of("no-such-event"), 0, 10)).isEmpty();
        assertThat(store.newestFirst(filter("user.", null, null, null), Optional.of("no-such-event"), 0, 10)).isEmpty();
    }

    private static EventFilter filter(String type, String subject, Instant from, Instant to) {
        return new EventFilter(Optional.ofNullable(type), Optional.ofNullable(subject), Optional.ofNullable(from),
                Optional.ofNullable(to));
    }
}
