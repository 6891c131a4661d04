package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.audit.AuditIds;
import dev.klave.audit.AuditRow;
import dev.klave.audit.ControlEvent;
import dev.klave.audit.FeedPosition;
import dev.klave.audit.FeedStore;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingAuditRows;
import dev.klave.testing.TestingClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The audit feed for SIEM pollers (issue 32): a request enters it when it has ended, a control
 * event when it is written; reading after the last position gives each entry once, in order.
 */
abstract class AuditFeedConformance extends StoreConformance {
    private static final Instant AT = Instant.parse("2026-11-25T10:00:00Z");

    JdbiAuditStore audit;
    JdbiControlEventStore events;
    JdbiAuditFeed feed;
    final AuditIds ids = new AuditIds(new TestingClock());

    @Override
    protected void setUp(Database database) {
        audit = new JdbiAuditStore(database);
        events = new JdbiControlEventStore(database);
        feed = new JdbiAuditFeed(database);
    }

    AuditRow pending(String id) {
        return TestingAuditRows.opened(id, AT, "prod-1",
                TestingAuditRows.request("list", "team-a", "pods", "/api/v1/pods"));
    }

    ControlEvent event(String id) {
        return new ControlEvent(id, AT, "grant.create", Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Map.of());
    }

    /** Reads the whole feed after {@code from}, a page of {@code page} at a time. */
    List<FeedStore.Entry> drain(FeedPosition from, int page) {
        List<FeedStore.Entry> all = new ArrayList<>();
        FeedPosition after = from;
        while (true) {
            List<FeedStore.Entry> read = feed.after(after, page);
            all.addAll(read);
            if (read.isEmpty()) {
                return all;
            }
            after = read.getLast().position();
        }
    }

    /**
     * The feed after {@code from} once it holds at least {@code count} entries. On PostgreSQL a
     * transaction still open anywhere on the server (another test's, another suite's) holds newer
     * entries back for a while; it never makes the feed skip or repeat one.
     */
    List<FeedStore.Entry> settled(FeedPosition from, int count) {
        return Eventually.value(count + " entries through the feed", Duration.ofSeconds(30), () -> {
            List<FeedStore.Entry> read = drain(from, 1);
            return read.size() >= count ? Optional.of(read) : Optional.empty();
        });
    }

    FeedPosition end() {
        List<FeedStore.Entry> all = drain(FeedPosition.START, 1000);
        return all.isEmpty() ? FeedPosition.START : all.getLast().position();
    }

    static String idOf(FeedStore.Entry entry) {
        return entry.request().map(AuditRow::id).orElseGet(() -> entry.event().orElseThrow().id());
    }

    @Test
    void aRequestEntersWhenItEndsAndEventsAsTheyAreWrittenEachOnceInOrder() {
        FeedPosition start = end();
        String served = ids.next();
        String waiting = ids.next();
        String event = UUID.randomUUID().toString();
        audit.write(List.of(pending(served), pending(waiting)), List.of());
        events.append(event(event));

        assertThat(settled(start, 1)).extracting(AuditFeedConformance::idOf).containsExactly(event);

        audit.write(List.of(), List.of(new AuditRow.Completion(served, 200, Optional.empty(), AT)));
        List<FeedStore.Entry> now = settled(start, 2);

        assertThat(now).extracting(AuditFeedConformance::idOf).containsExactly(event, served);
        assertThat(now.get(1).request().orElseThrow().outcome()).contains(TestingAuditRows.answered(200, AT));
        assertThat(now.get(0).position()).isLessThan(now.get(1).position());
        assertThat(FeedPosition.decode(now.get(1).position().encode())).isEqualTo(now.get(1).position());
    }
}
