package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.klave.account.Subject;
import dev.klave.account.SubjectFilter;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Puts a notification in the outbox, in the caller's transaction: one row for each destination that
 * wants its kind, and one for each person to tell who has an e-mail address (when e-mail is set
 * up). What it tells and its notification are stored together or not at all.
 */
public final class Notifier {
    static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    /** Nothing is sent anywhere: for tools and tests that build a piece without notifications. */
    public static final Notifier NONE = new Notifier();

    private final DestinationStore destinations;
    private final Outbox outbox;
    private final SubjectStore subjects;
    private final boolean email;
    private final SecureRandom random;
    private final Clock clock;
    private final Runnable wake;

    /**
     * @param email whether e-mail is set up ({@code SERVICE_SMTP_URL})
     * @param wake told after rows were added, so this replica delivers without waiting for its poll
     */
    public Notifier(DestinationStore destinations, Outbox outbox, SubjectStore subjects, boolean email,
            SecureRandom random, Clock clock, Runnable wake) {
        this.destinations = requireNonNull(destinations, "destinations is null");
        this.outbox = requireNonNull(outbox, "outbox is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.email = email;
        this.random = requireNonNull(random, "random is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.wake = requireNonNull(wake, "wake is null");
    }

    private Notifier() {
        this.destinations = null;
        this.outbox = null;
        this.subjects = null;
        this.email = false;
        this.random = null;
        this.clock = null;
        this.wake = () -> {};
    }

    /**
     * Queues {@code notification} for every destination that wants it and for {@code people} by
     * e-mail; returns how many deliveries it queued.
     */
    public int notify(Notification notification, Collection<SubjectId> people) {
        if (outbox == null) {
            return 0;
        }
        String payload = payload(notification);
        Instant now = clock.instant();
        int queued = 0;
        for (Destination destination : destinations.all()) {
            if (destination.kinds().contains(notification.kind())) {
                queued += add(Outbox.Channel.WEBHOOK, Optional.of(destination.id()), destination.id(), notification,
                        payload, now);
            }
        }
        if (email && !people.isEmpty()) {
            for (Subject person : subjects.findByIds(Set.copyOf(people))) {
                if (person.enabled() && person.kind() == SubjectKind.PERSON && person.email().isPresent()) {
                    queued += add(Outbox.Channel.EMAIL, Optional.empty(), person.email().get(), notification, payload,
                            now);
                }
            }
        }
        if (queued > 0) {
            wake.run();
        }
        return queued;
    }

    /** Queues {@code notification} for {@code destination} alone (a test); returns how many were queued. */
    int only(Destination destination, Notification notification) {
        if (outbox == null) {
            return 0;
        }
        int queued = add(Outbox.Channel.WEBHOOK, Optional.of(destination.id()), destination.id(), notification,
                payload(notification), clock.instant());
        wake.run();
        return queued;
    }

    /** The enabled administrators: who is told of what they decide by default, and of notices. */
    public Set<SubjectId> administrators() {
        if (subjects == null) {
            return Set.of();
        }
        Set<SubjectId> admins = new LinkedHashSet<>();
        subjects.list(new SubjectFilter(Optional.empty(), Optional.of(SubjectKind.PERSON), Optional.of(true), true),
                Optional.empty(), 1000).forEach(subject -> admins.add(subject.id()));
        return admins;
    }

    private int add(Outbox.Channel channel, Optional<String> destination, String target, Notification notification,
            String payload, Instant now) {
        Outbox.Row row = new Outbox.Row(id(), channel, destination, target, notification.kind(), notification.key(),
                payload, now, 0, now, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        return outbox.add(row) ? 1 : 0;
    }

    private String id() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return "n_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * The stored payload, which is also the generic JSON event: each line an object, {@code text}
     * Klave's words and {@code quote}, when present, what a person wrote.
     */
    static String payload(Notification notification) {
        List<Map<String, String>> lines = notification.lines().stream().map(line -> line.quote()
                .map(quote -> Map.of("text", line.text(), "quote", quote))
                .orElseGet(() -> Map.of("text", line.text()))).toList();
        try {
            return JSON.writeValueAsString(Map.of("id", notification.key(), "kind", notification.kind().code(),
                    "occurred_at", notification.occurredAt().toString(), "title", notification.title(),
                    "lines", lines, "link", notification.link().toString(), "data",
                    notification.data()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a notification's payload is plain JSON", e);
        }
    }
}
