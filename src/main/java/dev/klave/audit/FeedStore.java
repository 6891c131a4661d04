package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/** The audit feed for SIEM pollers (issue 32): what ended or happened, in an order no late commit breaks. */
public interface FeedStore {
    /** One entry: a request that has ended, or a control event. */
    record Entry(FeedPosition position, Optional<AuditRow> request, Optional<ControlEvent> event) {
        public Entry {
            requireNonNull(position, "position is null");
            if (request.isPresent() == event.isPresent()) {
                throw new IllegalArgumentException("an entry is a request or an event");
            }
        }
    }

    /** Up to {@code limit} entries after {@code after}, in feed order. */
    List<Entry> after(FeedPosition after, int limit);
}
