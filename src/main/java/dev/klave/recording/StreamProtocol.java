package dev.klave.recording;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The streaming protocols the recorder reads (issue 51), as a server chooses one in its 101 answer.
 * A session is recorded only in a protocol named here: anything else — another subprotocol, two of
 * them, a WebSocket extension (compressed frames), another upgrade — is not understood, and a
 * cluster that requires recording does not relay it.
 *
 * <ul>
 *   <li>{@link #WEBSOCKET}: binary messages whose first byte is the channel (0 stdin, 1 stdout,
 *       2 stderr, 3 error, 4 resize): {@code v5.channel.k8s.io}, {@code v4.channel.k8s.io},
 *       {@code channel.k8s.io}, and no subprotocol at all (the kubelet then speaks the last).
 *   <li>{@link #WEBSOCKET_BASE64}: text messages whose first character is the channel's digit and
 *       the rest the base64 of the data: {@code v4.base64.channel.k8s.io}, {@code base64.channel.k8s.io}
 *       — served by kubelets and used by browser terminals.
 *   <li>{@link #SPDY}: SPDY/3.1 with {@code X-Stream-Protocol-Version} {@code channel.k8s.io} or
 *       {@code v2} to {@code v5}, or none (the oldest); each stream names its type.
 * </ul>
 */
public enum StreamProtocol {
    WEBSOCKET, WEBSOCKET_BASE64, SPDY;

    private static final Set<String> BINARY = Set.of("v5.channel.k8s.io", "v4.channel.k8s.io", "channel.k8s.io");
    private static final Set<String> BASE64 = Set.of("v4.base64.channel.k8s.io", "base64.channel.k8s.io");
    private static final Set<String> SPDY_VERSIONS = Set.of("v5.channel.k8s.io", "v4.channel.k8s.io",
            "v3.channel.k8s.io", "v2.channel.k8s.io", "channel.k8s.io");

    /** Whether the recorder reads this subprotocol of a WebSocket session (exactly, as the kubelet matches it). */
    public static boolean readable(String subprotocol) {
        return BINARY.contains(subprotocol) || BASE64.contains(subprotocol);
    }

    /** Whether the recorder reads SPDY streams of this {@code X-Stream-Protocol-Version}. */
    public static boolean readableOverSpdy(String version) {
        return SPDY_VERSIONS.contains(version);
    }

    /**
     * What a 101 answer chose, from its headers (every value of each, as received): the
     * {@code Upgrade}, {@code Sec-WebSocket-Protocol}, {@code Sec-WebSocket-Extensions} and
     * {@code X-Stream-Protocol-Version} fields.
     */
    public record Choice(List<String> upgrade, List<String> subprotocol, List<String> extensions,
            List<String> streamVersion) {
        public Choice {
            upgrade = List.copyOf(upgrade);
            subprotocol = List.copyOf(subprotocol);
            extensions = List.copyOf(extensions);
            streamVersion = List.copyOf(streamVersion);
        }

        /** The protocol the recorder reads, or empty when it would not understand the session. */
        public Optional<StreamProtocol> understood() {
            if (upgrade.size() != 1) {
                return Optional.empty();
            }
            String chosen = upgrade.get(0).strip().toLowerCase(Locale.ROOT);
            if (chosen.equals("websocket")) {
                if (!extensions.isEmpty() || subprotocol.size() > 1) {
                    return Optional.empty();
                }
                String protocol = subprotocol.isEmpty() ? "" : subprotocol.get(0).strip();
                if (protocol.isEmpty() || BINARY.contains(protocol)) {
                    return Optional.of(WEBSOCKET);
                }
                return BASE64.contains(protocol) ? Optional.of(WEBSOCKET_BASE64) : Optional.empty();
            }
            if (chosen.equals("spdy/3.1")) {
                if (streamVersion.size() > 1) {
                    return Optional.empty();
                }
                return streamVersion.isEmpty() || SPDY_VERSIONS.contains(streamVersion.get(0).strip())
                        ? Optional.of(SPDY) : Optional.empty();
            }
            return Optional.empty();
        }

        /** The choice in words, for a refusal or a recording's reason: what the server answered, as text. */
        public String describe() {
            List<String> parts = new ArrayList<>();
            parts.add("Upgrade: " + String.join(", ", upgrade));
            if (!subprotocol.isEmpty()) {
                parts.add("Sec-WebSocket-Protocol: " + String.join(", ", subprotocol));
            }
            if (!extensions.isEmpty()) {
                parts.add("Sec-WebSocket-Extensions: " + String.join(", ", extensions));
            }
            if (!streamVersion.isEmpty()) {
                parts.add("X-Stream-Protocol-Version: " + String.join(", ", streamVersion));
            }
            return String.join("; ", parts);
        }
    }

    /** Splits header values that list several (RFC 9110 §5.6.1), as a server or client may send them. */
    public static List<String> listed(List<String> values) {
        requireNonNull(values, "values is null");
        List<String> items = new ArrayList<>();
        for (String value : values) {
            for (String item : value.split(",", -1)) {
                if (!item.isBlank()) {
                    items.add(item.strip());
                }
            }
        }
        return items;
    }
}
