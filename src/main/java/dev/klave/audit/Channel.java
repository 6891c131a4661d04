package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How a call reached a cluster, as its audit row says: through the proxy, or through an agent's
 * tool (spec 3 §4: each cluster request a tool makes carries the tool and the session).
 */
public record Channel(Kind kind, Optional<String> tool, Optional<String> session) {
    private static final Pattern TOOL = Pattern.compile("[a-z_]{1,64}");
    private static final Pattern SESSION = Pattern.compile("[\\x21-\\x7e]{1,64}");

    public static final Channel PROXY = new Channel(Kind.PROXY, Optional.empty(), Optional.empty());

    /** The two ways in; the text is what rows and the API carry. */
    public enum Kind {
        PROXY("proxy"),
        TOOL("tool");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    public Channel {
        requireNonNull(kind, "kind is null");
        requireNonNull(tool, "tool is null");
        requireNonNull(session, "session is null");
        if (kind == Kind.PROXY && (tool.isPresent() || session.isPresent())) {
            throw new IllegalArgumentException("a proxy request has no tool or session");
        }
        if (kind == Kind.TOOL && tool.filter(name -> TOOL.matcher(name).matches()).isEmpty()) {
            throw new IllegalArgumentException("a tool call names its tool in [a-z_]{1,64}");
        }
        if (session.isPresent() && !SESSION.matcher(session.get()).matches()) {
            throw new IllegalArgumentException("a session id is 1 to 64 visible ASCII characters");
        }
    }

    /** A tool called with a bot's credential: no agent session. */
    public static Channel tool(String name) {
        return new Channel(Kind.TOOL, Optional.of(name), Optional.empty());
    }

    /** A tool called by a delegated agent, within its session. */
    public static Channel tool(String name, String session) {
        return new Channel(Kind.TOOL, Optional.of(name), Optional.of(session));
    }
}
