package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.messages.Message;
import dev.klave.messages.Text;
import dev.klave.messages.Untrusted;
import dev.klave.outbound.HostNames;
import dev.klave.outbound.OutboundFailure;
import dev.klave.storage.Transactions;
import dev.klave.config.BaseUrl;
import java.net.URI;
import java.net.URISyntaxException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Webhook destinations for administrators (issue 41): added with the kinds they want, a JSON one
 * with a signing secret shown once; removed; tested; their delivery log read. Each change an event.
 * An address is refused when added by the rule every delivery applies ({@link WebhookSender#check}:
 * public addresses or {@code SERVICE_WEBHOOK_ALLOW}'s, its name resolved now), not first at a
 * delivery nobody watches.
 */
public final class Destinations {
    public static final int MAX_NAME = 100;
    public static final int MAX_URL = 2000;
    public static final int MAX_DESTINATIONS = 50;
    /** Rows of a destination's delivery log. */
    public static final int LOG = 50;
    /** Issue 41: a destination failing this long is an installation notice ("más de 15 minutos"). */
    static final Duration NOTICE_AFTER = Duration.ofMinutes(15);

    private final Transactions transactions;
    private final DestinationStore store;
    private final Outbox outbox;
    private final Notifier notifier;
    private final ControlEvents events;
    private final WebhookSender webhooks;
    private final BaseUrl baseUrl;
    private final SecureRandom random;
    private final Clock clock;

    public Destinations(Transactions transactions, DestinationStore store, Outbox outbox, Notifier notifier,
            ControlEvents events, WebhookSender webhooks, BaseUrl baseUrl, SecureRandom random, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.store = requireNonNull(store, "store is null");
        this.outbox = requireNonNull(outbox, "outbox is null");
        this.notifier = requireNonNull(notifier, "notifier is null");
        this.events = requireNonNull(events, "events is null");
        this.webhooks = requireNonNull(webhooks, "webhooks is null");
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
        this.random = requireNonNull(random, "random is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** What a new destination asks for, as the API received it. */
    public record Request(String name, String format, String url, List<String> kinds) {}

    /** @throws dev.klave.messages.Refusal 400 for a bad name, format, address (one delivery would refuse) or kind */
    public Destination create(Request request, Principal by) {
        String name = request.name() == null ? "" : request.name().strip();
        if (name.isEmpty() || name.length() > MAX_NAME) {
            throw Message.NOTIFY_NAME.refusal(MAX_NAME);
        }
        Destination.Format format;
        try {
            format = Destination.Format.parse(request.format() == null ? "" : request.format());
        } catch (IllegalArgumentException e) {
            throw Message.NOTIFY_FORMAT.refusal();
        }
        URI url = url(request.url());
        Set<Kind> kinds = EnumSet.noneOf(Kind.class);
        for (String kind : request.kinds() == null ? List.<String>of() : request.kinds()) {
            try {
                kinds.add(Kind.parse(kind));
            } catch (IllegalArgumentException e) {
                throw Message.NOTIFY_KINDS.refusal();
            }
        }
        if (kinds.isEmpty()) {
            throw Message.NOTIFY_KINDS.refusal();
        }
        reachable(url);
        Optional<String> secret = format == Destination.Format.JSON ? Optional.of(secret()) : Optional.empty();
        Destination destination = new Destination(UUID.randomUUID().toString(), name, format, url, shown(url), secret,
                kinds, clock.instant(), Optional.of(by.subjectId().value()), Destination.Delivery.NONE,
                Optional.empty());
        return transactions.inTransaction(() -> {
            if (store.all().size() >= MAX_DESTINATIONS) {
                throw Message.NOTIFY_TOO_MANY.refusal(MAX_DESTINATIONS);
            }
            store.create(destination);
            events.event(EventType.NOTIFY_DESTINATION_CREATE).actor(by)
                    .details(Map.of("destination", destination.id(), "name", name, "format", format.code(),
                            "address", destination.urlShown()))
                    .record();
            return destination;
        });
    }

    public List<Destination> all() {
        return store.all();
    }

    public void delete(String id, Principal by) {
        Destination destination = store.findById(id).orElseThrow(Message.NOT_FOUND::refusal);
        transactions.inTransaction(() -> {
            if (store.delete(id)) {
                events.event(EventType.NOTIFY_DESTINATION_DELETE).actor(by)
                        .details(Map.of("destination", id, "name", destination.name())).record();
            }
            return null;
        });
    }

    /** Queues a test notification for this destination alone (whatever kinds it wants). */
    public void test(String id, Principal by) {
        Destination destination = store.findById(id).orElseThrow(Message.NOT_FOUND::refusal);
        Instant now = clock.instant();
        Notification test = new Notification(destination.kinds().iterator().next(), "test:" + UUID.randomUUID(), now,
                Text.NOTIFY_TEST_TITLE.text(), List.of(Notification.Line.of(Text.NOTIFY_TEST_LINE.text(by.login().value()))),
                URI.create(baseUrl.resolve("/admin/instalacion")), Map.of("test", true));
        transactions.inTransaction(() -> notifier.only(destination, test));
    }

    public List<Outbox.Row> log(String id) {
        store.findById(id).orElseThrow(Message.NOT_FOUND::refusal);
        return outbox.ofDestination(id, LOG);
    }

    /** The names of the destinations failing for longer than {@link #NOTICE_AFTER}: each an installation notice. */
    public List<String> failingNames() {
        Instant before = clock.instant().minus(NOTICE_AFTER);
        return store.all().stream().filter(destination -> destination.failingSince()
                .filter(since -> !since.isAfter(before)).isPresent()).map(Destination::name).toList();
    }

    /** Refuses an address no delivery would reach: the look-up and the rule of {@link WebhookSender}. */
    private void reachable(URI url) {
        try {
            webhooks.check(url);
        } catch (OutboundFailure failure) {
            throw failure.kind() == OutboundFailure.Kind.ADDRESS_REFUSED
                    ? Message.NOTIFY_ADDRESS_REFUSED.refusal(Untrusted.text(url.getHost()))
                    : Message.NOTIFY_ADDRESS_UNKNOWN.refusal(Untrusted.text(url.getHost()));
        }
    }

    /** An absolute https address with a host, no user part, no fragment: checked again when sent. */
    static URI url(String text) {
        if (text == null || text.isBlank() || text.length() > MAX_URL) {
            throw Message.NOTIFY_URL.refusal();
        }
        try {
            URI url = new URI(text.strip());
            String authority = url.getRawAuthority() == null ? "" : url.getRawAuthority().replaceFirst(":[0-9]*$", "");
            if (url.getHost() == null && !authority.isEmpty() && HostNames.ambiguousIpv4(authority)) {
                // https://127.1: no host to java.net.URI, 127.0.0.1 to a browser and to inet_aton.
                throw Message.NOTIFY_ADDRESS_REFUSED.refusal(Untrusted.text(authority));
            }
            if (!"https".equalsIgnoreCase(url.getScheme()) || url.getHost() == null || url.getRawUserInfo() != null
                    || url.getRawFragment() != null || !url.toASCIIString().equals(url.toString())) {
                throw Message.NOTIFY_URL.refusal();
            }
            return url;
        } catch (URISyntaxException e) {
            throw Message.NOTIFY_URL.refusal();
        }
    }

    /** The address shown on screens: scheme, host and port — the path of a Slack webhook is its secret. */
    static String shown(URI url) {
        return "https://" + url.getHost() + (url.getPort() == -1 ? "" : ":" + url.getPort()) + "/…";
    }

    private String secret() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return "kws_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
