package dev.klave.login;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A page of Klave's own that a sign-in returns to afterwards (spec 3 §4 "Agent login": the person
 * signs in on the consent page with their normal login and comes back to it). It travels from the
 * login page through the provider and back, so it is held to be nothing but one of Klave's pages:
 * a path starting with one {@code /}, printable ASCII only (no control character, no space, so no
 * header can be split), no backslash (browsers read {@code /\host} as {@code //host}), no
 * {@code .} or {@code ..} segment, and none of the paths that are not pages ({@code /api},
 * {@code /oauth}, the proxy…) — checked on the path as written and again once percent-decoded,
 * so {@code /%2F%2Fhost} is refused too. Anything else is no return path, and the sign-in lands on
 * the default page. The web interface applies the same rules ({@code web/src/session.ts}).
 */
public record ReturnPath(String path) {
    /** Far above any page's address (a consent page's id is a few hundred characters). */
    static final int MAX_LENGTH = 2048;
    /** Mounts that are not pages of the web interface; {@code /login} would only loop. */
    private static final List<String> NOT_PAGES = List.of("/api", "/v1", "/mcp", "/oauth", "/.well-known",
            "/clusters", "/healthz", "/readyz", "/login");

    public ReturnPath {
        requireNonNull(path, "path is null");
        if (!acceptable(path)) {
            throw new IllegalArgumentException("not one of Klave's pages");
        }
    }

    /** {@code candidate} as a return path, when it is one of Klave's pages; empty otherwise. */
    public static Optional<ReturnPath> of(String candidate) {
        return candidate != null && acceptable(candidate) ? Optional.of(new ReturnPath(candidate)) : Optional.empty();
    }

    /** As {@link #of(String)}, for a query parameter that may be missing. */
    public static Optional<ReturnPath> of(Optional<String> candidate) {
        return candidate.flatMap(ReturnPath::of);
    }

    private static boolean acceptable(String path) {
        if (path.isEmpty() || path.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                return false;
            }
        }
        Optional<String> decoded = percentDecoded(path);
        return decoded.isPresent() && page(path) && page(decoded.get());
    }

    private static boolean page(String path) {
        if (!path.startsWith("/") || path.startsWith("//") || path.indexOf('\\') >= 0) {
            return false;
        }
        for (int i = 0; i < path.length(); i++) {
            if (Character.isISOControl(path.charAt(i))) {
                return false;
            }
        }
        int end = firstOf(path, '?', '#');
        String pathPart = path.substring(0, end);
        for (String segment : pathPart.substring(1).split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        String lower = pathPart.toLowerCase(Locale.ROOT);
        for (String mount : NOT_PAGES) {
            if (lower.equals(mount) || lower.startsWith(mount + "/")) {
                return false;
            }
        }
        return true;
    }

    private static int firstOf(String text, char first, char second) {
        int a = text.indexOf(first);
        int b = text.indexOf(second);
        if (a < 0) {
            return b < 0 ? text.length() : b;
        }
        return b < 0 ? a : Math.min(a, b);
    }

    /** RFC 3986 §2.1 percent-decoding; empty for a malformed escape. {@code +} stays itself. */
    private static Optional<String> percentDecoded(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '%') {
                bytes.write(c);
                continue;
            }
            if (i + 2 >= text.length()) {
                return Optional.empty();
            }
            int high = Character.digit(text.charAt(i + 1), 16);
            int low = Character.digit(text.charAt(i + 2), 16);
            if (high < 0 || low < 0) {
                return Optional.empty();
            }
            bytes.write(high * 16 + low);
            i += 2;
        }
        return Optional.of(bytes.toString(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return path;
    }
}
