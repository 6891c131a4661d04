package dev.klave.oauth.client;

import dev.klave.messages.Message;
import dev.klave.messages.Text;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The redirect URI rules of spec 3 §4 "Agent login" (1-7), applied when a client registers and,
 * later, when it asks for authorization. A URI is kept as the client wrote it: matching is on the
 * exact string (rules 1 and 3), with the one exception of RFC 8252 §7.3 for loopback ports.
 */
public final class RedirectUris {
    /** Rule 2: the only hosts an {@code http} redirect may name. */
    private static final Set<String> HTTP_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]");
    private static final Pattern SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*):");

    private RedirectUris() {}

    /**
     * Checks {@code uri} against rules 2, 4 and 5 and its form: absolute, no fragment, an http(s)
     * URI with a host and no user name (which reads as one host and goes to another), a scheme
     * {@link RedirectSchemes} does not refuse. Only a URI Java parses passes: no padding or control
     * character can make a refused scheme read as another.
     *
     * @throws dev.klave.messages.Refusal {@code oauth.invalid_redirect_uri} saying which rule
     */
    public static void requireAcceptable(String uri) {
        Optional<String> problem = problemOf(uri);
        if (problem.isPresent()) {
            throw Message.OAUTH_INVALID_REDIRECT_URI.refusal(uri, problem.get());
        }
    }

    /** Whether {@code uri} passes {@link #requireAcceptable}. */
    public static boolean isAcceptable(String uri) {
        return problemOf(uri).isEmpty();
    }

    private static Optional<String> problemOf(String uri) {
        URI parsed;
        try {
            parsed = new URI(uri);
        } catch (URISyntaxException e) {
            return Optional.of(Text.REDIRECT_NOT_URI.text());
        }
        if (parsed.getScheme() == null) {
            return Optional.of(Text.REDIRECT_NOT_ABSOLUTE.text());
        }
        if (parsed.getRawFragment() != null) {
            return Optional.of(Text.REDIRECT_FRAGMENT.text());
        }
        String scheme = parsed.getScheme().toLowerCase(Locale.ROOT);
        RedirectSchemes.Kind kind = RedirectSchemes.of(scheme);
        if (kind == RedirectSchemes.Kind.REFUSED) {
            return Optional.of(Text.REDIRECT_SCHEME_REFUSED.text(scheme));
        }
        if (kind == RedirectSchemes.Kind.BROWSER_WRAPPER) {
            return Optional.of(Text.REDIRECT_SCHEME_WRAPPER.text(scheme));
        }
        if (kind == RedirectSchemes.Kind.APPLICATION) {
            // Rule 3: a private scheme (an app's) is accepted and must later match exactly.
            return Optional.empty();
        }
        if (parsed.getRawAuthority() == null || parsed.getHost() == null) {
            return Optional.of(Text.REDIRECT_NO_HOST.text());
        }
        if (parsed.getRawUserInfo() != null) {
            return Optional.of(Text.REDIRECT_USER_INFO.text());
        }
        if (scheme.equals("http") && !HTTP_HOSTS.contains(parsed.getHost().toLowerCase(Locale.ROOT))) {
            return Optional.of(Text.REDIRECT_HTTP_NOT_LOOPBACK.text());
        }
        return Optional.empty();
    }

    /** Rule 5: whether {@code uri} uses a browser wrapper scheme. */
    public static boolean isBrowserWrapper(String uri) {
        return schemeOf(uri).map(scheme -> RedirectSchemes.of(scheme) == RedirectSchemes.Kind.BROWSER_WRAPPER)
                .orElse(false);
    }

    /**
     * Rule 5: a client that declared a browser wrapper scheme (a metadata document may come to say
     * so after it was first accepted) stops authorizing, whatever the redirect URI it presents.
     */
    public static boolean mustStopAuthorizing(Collection<String> declared) {
        return declared.stream().anyMatch(RedirectUris::isBrowserWrapper);
    }

    /**
     * Rule 6: whether the answer would stay on this machine — {@code http} or {@code https} to
     * {@code localhost}, {@code 127.0.0.0/8} or {@code [::1]}. Every other address, and every app
     * scheme, gets the consent page's warning.
     */
    public static boolean isLoopback(String uri) {
        Optional<URI> parsed = parse(uri);
        if (parsed.isEmpty() || parsed.get().getHost() == null) {
            return false;
        }
        String scheme = parsed.get().getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return false;
        }
        String host = parsed.get().getHost().toLowerCase(Locale.ROOT);
        return host.equals("localhost") || host.equals("[::1]") || isIpv4Loopback(host);
    }

    /**
     * Whether {@code presented} is one of {@code registered}: the exact string (rules 1 and 3),
     * except that an {@code http} loopback URI may name another port than the registered one,
     * because a native app listens on whatever port the system gives it (RFC 8252 §7.3). Scheme,
     * host, path and query must still be the same.
     */
    public static boolean matches(String presented, Collection<String> registered) {
        if (!isAcceptable(presented)) {
            return false;
        }
        if (registered.contains(presented)) {
            return true;
        }
        Optional<URI> asked = parse(presented).filter(RedirectUris::isHttpLoopback);
        if (asked.isEmpty()) {
            return false;
        }
        return registered.stream()
                .map(RedirectUris::parse)
                .flatMap(Optional::stream)
                .filter(RedirectUris::isHttpLoopback)
                .anyMatch(candidate -> sameButPort(asked.get(), candidate));
    }

    private static boolean isHttpLoopback(URI uri) {
        return "http".equals(uri.getScheme()) && uri.getHost() != null && HTTP_HOSTS.contains(uri.getHost())
                && uri.getRawUserInfo() == null;
    }

    private static boolean sameButPort(URI a, URI b) {
        return a.getHost().equals(b.getHost())
                && a.getRawPath().equals(b.getRawPath())
                && Objects.equals(a.getRawQuery(), b.getRawQuery());
    }

    private static boolean isIpv4Loopback(String host) {
        String[] parts = host.split("\\.", -1);
        if (parts.length != 4 || !parts[0].equals("127")) {
            return false;
        }
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)
                    || Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }

    /** Read from the text itself (RFC 3986 §3.1), so that a URI Java cannot parse still shows its scheme. */
    private static Optional<String> schemeOf(String uri) {
        Matcher matcher = SCHEME.matcher(uri);
        return matcher.lookingAt() ? Optional.of(matcher.group(1).toLowerCase(Locale.ROOT)) : Optional.empty();
    }

    private static Optional<URI> parse(String uri) {
        try {
            URI parsed = new URI(uri);
            return parsed.getScheme() == null ? Optional.empty() : Optional.of(parsed);
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }
}
