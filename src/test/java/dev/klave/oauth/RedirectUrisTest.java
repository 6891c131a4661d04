package dev.klave.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.oauth.client.RedirectUris;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The redirect URI rules of spec 3 §4 "Agent login", one by one, with the specification's examples. */
class RedirectUrisTest {
    @ParameterizedTest
    @ValueSource(strings = {
        // Rule 1: any https address (matched exactly later).
        "https://app.example.com/callback", "https://app.example.com:8443/cb?x=1",
        // Rule 2: http on the three loopback names, any port.
        "http://localhost/callback", "http://localhost:33418/callback", "http://127.0.0.1:6274/oauth/callback",
        "http://[::1]:8080/cb",
        // Rule 3: private (app) schemes.
        "com.example.app:/oauth2redirect", "cursor://anysphere.cursor-retrieval/oauth/callback", "vscode://x/cb",
        "vscode-insiders://x/cb", "Cursor://anysphere.cursor-retrieval/cb", "app:/cb", "a:/b", "myapp://callback",
        // Names near a refused one, but not it: only whole names and the families' prefixes are refused.
        "msauth.com.example.app://auth", "msauth://com.example/hash", "shelly://cb", "marketplace.example:/cb",
        "urnish://cb", "its-app://cb", "resolve://cb", "filer.example:/cb", "jarvis://cb", "webapp://cb",
    })
    void acceptedUris(String uri) {
        RedirectUris.requireAcceptable(uri);
        assertThat(RedirectUris.isAcceptable(uri)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // Rule 2: http anywhere but loopback, including other 127/8 addresses and look-alikes.
        "http://app.example.com/callback", "http://127.0.0.2/cb", "http://localhost.example.com/cb",
        "http://10.0.0.1/cb", "http://[::2]/cb",
        // Rule 4: the listed schemes.
        "javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "vbscript:msgbox", "blob:https://a/b",
        "about:blank", "ftp://files.example.com/cb", "ws://localhost/cb", "wss://app.example.com/cb",
        "JavaScript:alert(1)",
        // Rule 4: any fragment, even empty.
        "https://app.example.com/callback#x", "https://app.example.com/callback#", "com.example.app:/cb#frag",
        // Rule 5: browser wrapper schemes.
        "googlechrome://app.example.com/cb", "googlechromes://app.example.com/cb", "x-safari-http://a.example/cb",
        "x-safari-https://a.example/cb", "microsoft-edge:https://a.example/cb", "microsoft-edge-http://a.example/cb",
        "microsoft-edge-https://a.example/cb", "firefox://open-url?url=https://a.example", "opera-http://a.example/cb",
        "opera-https://a.example/cb", "brave://open-url?url=https://a.example", "intent://a.example/cb",
        "FIREFOX://a.example/cb",
        // Browser-internal and non-application schemes (the agent-safety review).
        "view-source:https://a.example/cb", "jar:https://a.example/x.jar!/cb", "filesystem:https://a.example/t/cb",
        "chrome://settings", "edge://settings", "chrome-extension://abc/cb", "mailto:a@example.com",
        "ssh://a.example/cb", "View-Source:https://a.example/cb",
        // Not a URI, not absolute, no host, user info.
        "/callback", "not a uri", "https:///cb", "https://user@app.example.com/cb", "",
    })
    void refusedUrisAreInvalidRedirectUri(String uri) {
        assertThat(RedirectUris.isAcceptable(uri)).isFalse();
        assertThatThrownBy(() -> RedirectUris.requireAcceptable(uri))
                .isInstanceOfSatisfying(Refusal.class, refusal -> {
                    assertThat(refusal.kind()).isEqualTo(Message.OAUTH_INVALID_REDIRECT_URI);
                    assertThat(refusal.kind().oauthError()).contains("invalid_redirect_uri");
                });
    }

    /**
     * Operating systems' and browsers' own handlers (issue 51 finding 12): each of these, in any
     * case, whatever follows its colon, is refused as rule 4's are, with the same code and text.
     */
    static Stream<Arguments> osAndInternalHandlers() {
        List<String> schemes = List.of(
                // The finding's.
                "search-ms", "ms-settings", "shell", "res", "wyciwyg", "itms-services", "market", "urn", "x-javascript",
                // Their families: every ms- handler, every x- scheme, Apple's installers.
                "ms-msdt", "ms-officecmd", "ms-word", "ms-excel", "ms-appinstaller", "ms-its", "ms-cxh",
                "ms-windows-store", "ms-", "x-apple.systempreferences", "x-apple-helpbasic", "x-web-search", "x-",
                "itms", "itmss", "itms-apps", "itms-appss", "itms-beta", "search",
                // Other handlers an attacker would try.
                "mk", "its", "hcp", "help", "mhtml", "ftp", "ftps", "file", "jar", "view-source", "android-app",
                "android.resource", "content", "app-prefs", "prefs", "shortcuts", "applescript", "apt", "appstream",
                "web+coolhandler", "chrome-extension", "chrome-untrusted", "moz-extension", "moz-icon",
                "safari-web-extension", "edge-extension", "livescript", "mocha", "callto", "sip", "rdp", "vnc", "ipfs");
        return schemes.stream().flatMap(scheme -> Stream.of(scheme, scheme.toUpperCase(Locale.ROOT), mixedCase(scheme))
                .flatMap(written -> Stream.of(written + ":x", written + "://host/cb", written + ":/cb?code=1",
                        written + ":open?url=https://a.example/cb")
                        .map(uri -> Arguments.of(uri, scheme))));
    }

    private static String mixedCase(String scheme) {
        StringBuilder mixed = new StringBuilder();
        for (int i = 0; i < scheme.length(); i++) {
            char c = scheme.charAt(i);
            mixed.append(i % 2 == 0 ? Character.toUpperCase(c) : c);
        }
        return mixed.toString();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("osAndInternalHandlers")
    void operatingSystemAndInternalHandlersAreRefusedInAnyCase(String uri, String scheme) {
        assertThat(RedirectUris.isAcceptable(uri)).isFalse();
        assertThat(RedirectUris.matches(uri, List.of(uri))).as("even if registered").isFalse();
        assertThatThrownBy(() -> RedirectUris.requireAcceptable(uri))
                .isInstanceOfSatisfying(Refusal.class, refusal -> {
                    assertThat(refusal.kind()).isEqualTo(Message.OAUTH_INVALID_REDIRECT_URI);
                    assertThat(refusal.kind().oauthError()).contains("invalid_redirect_uri");
                })
                .hasMessage("redirect_uri no válida (" + uri + "): el esquema " + scheme + " no está permitido");
    }

    @ParameterizedTest
    @ValueSource(strings = {"googlechrome-x-callback://x-callback-url/open/?url=https://a.example/cb",
        "firefox-focus://open-url?url=https://a.example/cb", "Opera-Touch://a.example/cb", "X-SAFARI-HTTPS://a.example/cb",
        "Microsoft-Edge-Holographic:https://a.example/cb"})
    void browsersOtherWrappersAreWrappersInAnyCase(String uri) {
        assertThat(RedirectUris.isAcceptable(uri)).isFalse();
        assertThat(RedirectUris.isBrowserWrapper(uri)).isTrue();
        assertThat(RedirectUris.mustStopAuthorizing(List.of("https://a.example/cb", uri))).isTrue();
        assertThatThrownBy(() -> RedirectUris.requireAcceptable(uri)).hasMessageEndingWith("abre otra dirección en un navegador");
    }

    @ParameterizedTest
    @ValueSource(strings = {" shell:x", "shell:x ", "\tms-settings:x", "sh\tell:x", "ms-settings :x", "\u0000shell:x",
        "\u00a0search-ms:query=x", "\ufeffshell:x", "shell\n:x", "ms-\u200bsettings:x", "search-ms:query=x\r\n"})
    void paddingMakesNoRefusedSchemeAcceptable(String uri) {
        assertThat(RedirectUris.isAcceptable(uri)).isFalse();
        assertThatThrownBy(() -> RedirectUris.requireAcceptable(uri)).isInstanceOf(Refusal.class);
    }

    @Test
    void theRefusalSaysWhichRule() {
        assertThatThrownBy(() -> RedirectUris.requireAcceptable("http://app.example.com/cb"))
                .hasMessage("redirect_uri no válida (http://app.example.com/cb): "
                        + "http solo se admite para localhost, 127.0.0.1 y [::1]");
        assertThatThrownBy(() -> RedirectUris.requireAcceptable("https://a.example/cb#x"))
                .hasMessageEndingWith("no puede llevar fragmento (#)");
        assertThatThrownBy(() -> RedirectUris.requireAcceptable("intent://a.example/cb"))
                .hasMessageEndingWith("el esquema intent abre otra dirección en un navegador");
    }

    @Test
    void aClientThatDeclaredABrowserWrapperStopsAuthorizing() {
        assertThat(RedirectUris.mustStopAuthorizing(List.of("https://a.example/cb", "googlechrome://a.example/cb")))
                .isTrue();
        // Seen in the scheme even when Java cannot parse the rest.
        assertThat(RedirectUris.mustStopAuthorizing(List.of("intent://a b"))).isTrue();
        assertThat(RedirectUris.mustStopAuthorizing(List.of("https://a.example/cb", "http://localhost/cb"))).isFalse();
        assertThat(RedirectUris.isBrowserWrapper("x-safari-https://a.example/cb")).isTrue();
        assertThat(RedirectUris.isBrowserWrapper("https://a.example/cb")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "http://localhost/cb", "http://localhost:1234/cb", "http://127.0.0.1:6274/cb", "http://127.1.2.3/cb",
        "http://[::1]:8080/cb", "https://localhost/cb", "https://127.0.0.1/cb",
    })
    void loopbackAnswersGetNoWarning(String uri) {
        assertThat(RedirectUris.isLoopback(uri)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "https://app.example.com/cb", "http://128.0.0.1/cb", "http://127.0.0.256/cb", "http://localhost.evil.example/cb",
        // Rule 6: every app scheme is warned about, whatever it names.
        "com.example.app:/cb", "cursor://localhost/cb", "vscode://127.0.0.1/cb",
    })
    void everythingElseGetsTheWarning(String uri) {
        assertThat(RedirectUris.isLoopback(uri)).isFalse();
    }

    @Test
    void httpsAndAppSchemesMatchOnlyExactly() {
        List<String> registered = List.of("https://app.example.com/callback", "com.example.app:/cb");

        assertThat(RedirectUris.matches("https://app.example.com/callback", registered)).isTrue();
        assertThat(RedirectUris.matches("com.example.app:/cb", registered)).isTrue();
        assertThat(RedirectUris.matches("https://app.example.com/callback/", registered)).isFalse();
        assertThat(RedirectUris.matches("https://app.example.com/callback?x=1", registered)).isFalse();
        assertThat(RedirectUris.matches("https://APP.example.com/callback", registered)).isFalse();
        assertThat(RedirectUris.matches("https://app.example.com:443/callback", registered)).isFalse();
        assertThat(RedirectUris.matches("com.example.app:/cb2", registered)).isFalse();
    }

    @Test
    void aLoopbackHttpUriMayNameAnotherPortButNothingElseDifferent() {
        List<String> registered = List.of("http://127.0.0.1/callback", "http://localhost:3000/cb?x=1");

        assertThat(RedirectUris.matches("http://127.0.0.1:51234/callback", registered)).isTrue();
        assertThat(RedirectUris.matches("http://127.0.0.1/callback", registered)).isTrue();
        assertThat(RedirectUris.matches("http://localhost:4000/cb?x=1", registered)).isTrue();
        assertThat(RedirectUris.matches("http://127.0.0.1:51234/other", registered)).isFalse();
        assertThat(RedirectUris.matches("http://localhost:51234/callback", registered)).as("other host").isFalse();
        assertThat(RedirectUris.matches("http://localhost:4000/cb?x=2", registered)).isFalse();
        assertThat(RedirectUris.matches("https://127.0.0.1:51234/callback", registered)).as("https: exact")
                .isFalse();
        assertThat(RedirectUris.matches("http://127.0.0.1:51234/callback#x", registered)).isFalse();
    }

    @Test
    void aRefusedUriMatchesNothingEvenIfRegistered() {
        assertThat(RedirectUris.matches("googlechrome://a.example/cb", List.of("googlechrome://a.example/cb")))
                .isFalse();
    }
}
