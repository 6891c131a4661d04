package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How a request came to a cluster: through the proxy, or sent by an agent's tool (spec 3 §1 2,
 * "Tool rules" 3: each cluster request a tool makes is an audit row carrying its tool and the
 * agent session). A proxy row has neither; a tool row always names its tool, and its session when
 * a delegated agent called it (a bot's credential has none).
 */
public record Channel(Kind kind, Optional<String> tool, Optional<String> session) {
    /** MCP tool names of spec 3 "Tools": lower case and underscores. */
    private static final Pattern TOOL = Pattern.compile("[a-z_]{1,64}");
    /** Session ids are opaque: 1 to 64 printable ASCII characters. */
    private static final Pattern SESSION = Pattern.compile("[\\x20-\\x7e]{1,64}");

    /** Every row of the proxy, including the refused ones and the edge's refusals. */
    public static final Channel PROXY = new Channel(Kind.PROXY, Optional.empty(), Optional.empty());

    /** The closed set, as stored and as the API names it. */
    public enum Kind {
        PROXY("proxy"),
        TOOL("tool");

        private final String wire;

        Kind(String wire) {
            this.wire = wire;
        }

        /** The name in the database, in {@code GET /api/audit} and in its {@code channel} filter. */
        public String wire() {
            return wire;
        }

        /** The kind named {@code text}, or empty when there is none (a filter's bad value). */
        public static Optional<Kind> named(String text) {
            for (Kind kind : values()) {
                if (kind.wire.equals(text)) {
                    return Optional.of(kind);
                }
            }
            return Optional.empty();
        }
    }

    public Channel {
        requireNonNull(kind, "kind is null");
        requireNonNull(tool, "tool is null");
        requireNonNull(session, "session is null");
        if (kind == Kind.PROXY && (tool.isPresent() || session.isPresent())) {
            throw new IllegalArgumentException("a proxy row has no tool and no session");
        }
        if (kind == Kind.TOOL && tool.isEmpty()) {
            throw new IllegalArgumentException("a tool row names its tool");
        }
        tool.ifPresent(name -> {
            if (!TOOL.matcher(name).matches()) {
                throw new IllegalArgumentException("tool name is not [a-z_]{1,64}");
            }
        });
        session.ifPresent(id -> {
            if (!SESSION.matcher(id).matches()) {
                throw new IllegalArgumentException("session id is not 1 to 64 printable ASCII characters");
            }
        });
    }

    /** A request of a tool called with a bot's credential: no session. */
    public static Channel tool(String name) {
        return new Channel(Kind.TOOL, Optional.of(requireNonNull(name, "name is null")), Optional.empty());
    }

    /** A request of a tool called by a delegated agent, in its session. */
    public static Channel tool(String name, String session) {
        return new Channel(Kind.TOOL, Optional.of(requireNonNull(name, "name is null")),
                Optional.of(requireNonNull(session, "session is null")));
    }

    /**
     * The channel as stored: {@code kind} as its wire name. A stored value outside the closed set
     * fails loudly rather than reading as a proxy row.
     */
    public static Channel stored(String kind, Optional<String> tool, Optional<String> session) {
        Kind known = Kind.named(requireNonNull(kind, "kind is null"))
                .orElseThrow(() -> new IllegalArgumentException("unknown channel " + kind));
        return new Channel(known, tool, session);
    }
}
