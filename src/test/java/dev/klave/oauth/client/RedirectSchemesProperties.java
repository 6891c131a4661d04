package dev.klave.oauth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A client's redirect URI is text from outside (registration, a metadata document): no refused
 * scheme or member of a refused family comes through by its case, by padding around or inside it,
 * or by what follows its colon (issue 51 finding 12), and an application's reverse-domain scheme
 * keeps working in any case (rule 3).
 */
class RedirectSchemesProperties {
    /** Refused by name: what rule 4 lists and the operating systems' and browsers' own handlers. */
    private static final List<String> REFUSED = List.of("javascript", "data", "file", "vbscript", "blob", "about",
            "ftp", "ws", "wss", "search-ms", "search", "shell", "res", "resource", "wyciwyg", "itms-services", "itms",
            "market", "urn", "x-javascript", "mk", "its", "hcp", "help", "mhtml", "jar", "view-source", "filesystem",
            "android-app", "android.resource", "content", "livescript", "mocha", "chrome", "edge", "opera", "mailto",
            "tel", "ssh", "smb", "apt", "shortcuts", "app-prefs", "prefs");
    /** Refused as families, whatever follows the prefix. */
    private static final List<String> FAMILIES = List.of("ms-", "x-", "web+", "search-", "itms-", "android-",
            "chrome-", "moz-", "edge-", "safari-", "brave-");
    /** Rule 5's wrappers and their browsers' families. */
    private static final List<String> WRAPPER_FAMILIES = List.of("googlechrome", "firefox-", "microsoft-edge",
            "opera-", "x-safari-");
    /** What a browser or an operating system may skip or fold before reading a scheme. */
    private static final List<String> PADDING = List.of(" ", "\t", "\n", "\r", "\u0000", "\u000B", "\u000C",
            "\u001F", "\u007F", "\u0085", "\u00A0", "\u1680", "\u2000", "\u200B", "\u200D", "\u2028", "\u2060",
            "\u3000", "\uFEFF", "%20", "%00", "%09");
    private static final String SCHEME_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789+-.";

    @Provide
    Arbitrary<String> refusedSchemes() {
        Arbitrary<String> suffix = Arbitraries.strings().withChars(SCHEME_CHARACTERS).ofMaxLength(12);
        return Arbitraries.oneOf(Arbitraries.of(REFUSED),
                Combinators.combine(Arbitraries.of(FAMILIES), suffix).as(String::concat));
    }

    @Provide
    Arbitrary<String> wrapperSchemes() {
        Arbitrary<String> suffix = Arbitraries.strings().withChars(SCHEME_CHARACTERS).ofMaxLength(12);
        return Combinators.combine(Arbitraries.of(WRAPPER_FAMILIES), suffix).as(String::concat);
    }

    /** What may follow the colon: an authority and path, an opaque part, a query; anything at all. */
    @Provide
    Arbitrary<String> rests() {
        return Arbitraries.oneOf(
                Arbitraries.of("//a.example/cb", "//localhost:8080/cb", "/cb", "x", "query=x", "open?url=https://a.example",
                        "//127.0.0.1/cb?code=1", ""),
                Arbitraries.strings().ascii().ofMaxLength(30));
    }

    /** The same letters, each in either case. */
    private static String anyCase(String scheme, long bits) {
        StringBuilder written = new StringBuilder(scheme.length());
        for (int i = 0; i < scheme.length(); i++) {
            char c = scheme.charAt(i);
            written.append((bits >>> (i % 64) & 1) == 1 ? Character.toUpperCase(c) : c);
        }
        return written.toString();
    }

    private static void assertRefused(String uri) {
        assertThat(RedirectUris.isAcceptable(uri)).as(uri).isFalse();
        assertThat(RedirectUris.matches(uri, List.of(uri))).as(uri).isFalse();
        assertThatThrownBy(() -> RedirectUris.requireAcceptable(uri)).as(uri)
                .isInstanceOfSatisfying(Refusal.class,
                        refusal -> assertThat(refusal.kind()).isEqualTo(Message.OAUTH_INVALID_REDIRECT_URI));
    }

    @Property(tries = 3000)
    void noRefusedSchemeComesThroughInAnyCase(@ForAll("refusedSchemes") String scheme, @ForAll long bits,
            @ForAll("rests") String rest) {
        String uri = anyCase(scheme, bits) + ":" + rest;

        assertRefused(uri);
    }

    @Property(tries = 3000)
    void noPaddingMakesARefusedSchemeAcceptable(@ForAll("refusedSchemes") String scheme, @ForAll long bits,
            @ForAll("rests") String rest, @ForAll("padding") String padding, @ForAll int where) {
        String written = anyCase(scheme, bits) + ":" + rest;
        // Before the scheme, inside it, before or after its colon, or at the end.
        int[] places = {0, Math.max(1, scheme.length() / 2), scheme.length(), scheme.length() + 1, written.length()};
        int at = places[Math.floorMod(where, places.length)];
        String uri = written.substring(0, at) + padding + written.substring(at);

        if (!uri.equals(written)) {
            assertRefused(uri);
        }
    }

    @Provide
    Arbitrary<String> padding() {
        return Arbitraries.of(PADDING).list().ofMinSize(1).ofMaxSize(3).map(pieces -> String.join("", pieces));
    }

    @Property(tries = 2000)
    void browserWrappersStopTheirClientInAnyCase(@ForAll("wrapperSchemes") String scheme, @ForAll long bits,
            @ForAll("rests") String rest) {
        String uri = anyCase(scheme, bits) + ":" + rest;

        assertRefused(uri);
        // Read from the text itself, so even a URI Java cannot parse stops its client.
        assertThat(RedirectUris.mustStopAuthorizing(List.of("https://a.example/cb", uri))).as(uri).isTrue();
    }

    /** Rule 3, RFC 8252 §7.1: an app's reverse-domain scheme, in any case, is accepted and matches itself. */
    @Property(tries = 2000)
    void reverseDomainAppSchemesKeepWorking(@ForAll("reverseDomains") String scheme, @ForAll long bits) {
        String uri = anyCase(scheme, bits) + ":/oauth/callback";

        assertThat(RedirectUris.isAcceptable(uri)).as(uri).isTrue();
        assertThat(RedirectUris.matches(uri, List.of(uri))).as(uri).isTrue();
        assertThat(RedirectUris.isLoopback(uri)).as("warned of, rule 6").isFalse();
    }

    @Provide
    Arbitrary<String> reverseDomains() {
        Arbitrary<String> label = Arbitraries.strings().withChars("abcdefghijklmnopqrstuvwxyz").ofMinLength(1)
                .ofMaxLength(8);
        return Combinators.combine(Arbitraries.of("com", "org", "dev", "io", "net", "app"), label, label)
                .as((top, middle, last) -> (top + "." + middle + "." + last).toLowerCase(Locale.ROOT));
    }
}
