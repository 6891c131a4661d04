package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import dev.klave.config.Cidr;
import dev.klave.crypto.Hmac;
import dev.klave.outbound.AddressPolicy;
import dev.klave.outbound.Answer;
import dev.klave.outbound.OutboundFailure;
import dev.klave.outbound.PinnedHttps;
import dev.klave.outbound.Resolver;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * POSTs a notification to a webhook as a client metadata document is fetched: HTTPS only, to a
 * public address (or one in {@code SERVICE_WEBHOOK_ALLOW}), checked for the connection itself, in 10
 * seconds from the look-up to the answer's last byte (connecting and reading included), no redirect
 * followed, at most 64 KiB of answer read. {@link #check} applies the same rule to an address an
 * administrator gives, before it is stored.
 */
public final class WebhookSender {
    static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final long ANSWER_LIMIT = 64 * 1024;

    private final PinnedHttps https;
    private final Clock clock;

    public WebhookSender(SSLContext tls, List<Cidr> allowed, Resolver resolver, Clock clock) {
        AddressPolicy publicOnly = AddressPolicy.publicOnly();
        List<Cidr> blocks = List.copyOf(requireNonNull(allowed, "allowed is null"));
        AddressPolicy policy = address -> publicOnly.permits(address)
                || blocks.stream().anyMatch(block -> block.contains(address));
        this.https = new PinnedHttps(tls, policy, resolver, DEADLINE, ANSWER_LIMIT);
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Whether {@code url} may be a destination: the rule of every delivery (public addresses or
     * {@code SERVICE_WEBHOOK_ALLOW}'s, no IPv4 address in an ambiguous form), its host name
     * resolved now. A delivery checks again for its own connection, so a name that later resolves
     * elsewhere is still refused.
     */
    void check(URI url) throws OutboundFailure {
        https.check(url);
    }

    /** The answer's status; a failure to reach the destination, as {@link OutboundFailure}. */
    int send(Destination destination, String deliveryId, String payload) throws OutboundFailure {
        byte[] body;
        Map<String, String> headers;
        if (destination.format() == Destination.Format.SLACK) {
            body = Formats.slack(Formats.read(payload));
            headers = Map.of();
        } else {
            body = Formats.json(payload);
            Hmac key = new Hmac(destination.secret().orElseThrow().getBytes(StandardCharsets.UTF_8));
            headers = Map.of("Klave-Signature", Formats.signature(key, clock.instant(), deliveryId, body),
                    "Klave-Event", Formats.read(payload).path("kind").asText(), "Klave-Delivery", deliveryId);
        }
        Answer answer = https.post(destination.url(), "application/json", body, headers);
        return answer.status();
    }
}
