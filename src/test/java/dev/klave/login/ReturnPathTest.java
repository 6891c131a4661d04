package dev.klave.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The page a sign-in returns to (spec 3 §4 "Agent login": the person comes back to the consent
 * page) is one of Klave's own pages or nothing: every way of naming another host, splitting a
 * header or reaching something that is not a page falls back to the default landing page.
 */
class ReturnPathTest {
    @ParameterizedTest
    @ValueSource(strings = {
        "/agents/authorize/eyJjIjoiaHR0cHM6Ly9leGFtcGxlIn0*c2lnbmF0dXJl",
        "/agents/requests/wr_abc",
        "/mi-cuenta",
        "/",
        "/admin/auditoria?subject=s1&page=2",
        "/admin/usuarios?q=%C3%B1",
        "/mi-cuenta#agentes",
    })
    void klavesOwnPagesAreKept(String path) {
        assertThat(ReturnPath.of(path)).contains(new ReturnPath(path));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // Another host, however written.
        "//evil.example", "//evil.example/agents/authorize/x", "/\\evil.example", "\\\\evil.example",
        "/%2F%2Fevil", "/%2f/evil.example", "/%5Cevil.example", "/%5C%5Cevil.example", "%2F%2Fevil.example",
        "https://evil.example", "http:evil.example", "https:/evil.example",
        // Other schemes and relative paths.
        "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,hi", "evil.example", "mi-cuenta", "",
        // Header splitting and other control characters, raw or encoded.
        "/mi-cuenta\r\nSet-Cookie: a=b", "/mi-cuenta\nx", "/mi-cuenta\rx", "/mi-cuenta%0d%0aSet-Cookie:%20a=b",
        "/mi-cuenta%0a", "/mi-cuenta\u0000", "/mi-cuenta%00", "/mi-cuenta\t", "/mi cuenta", "/mi-cuenta%C2%85",
        "/mi-cuenta\u2028", "/cuenta\u00f1",
        // Not pages.
        "/api/auth/logout", "/api", "/API/auth/logout", "/%61pi/auth/logout", "/oauth/authorize?x=1",
        "/.well-known/oauth-authorization-server", "/mcp", "/v1/ci/forge-actions/token",
        "/clusters/prod-1/api/v1/secrets", "/healthz", "/login", "/login?next=/mi-cuenta",
        // Dot segments that would climb into one of them.
        "/agents/../api/auth/logout", "/./api/me", "/%2E%2E/api/me", "/a/%2e%2e/api",
        // Malformed escapes.
        "/mi-cuenta%", "/mi-cuenta%zz", "/mi-cuenta%4",
    })
    void everythingElseFallsBackToTheDefaultPage(String hostile) {
        assertThat(ReturnPath.of(hostile)).isEmpty();
        assertThatThrownBy(() -> new ReturnPath(hostile)).isInstanceOf(IllegalArgumentException.class);
    }

    @org.junit.jupiter.api.Test
    void aMissingOrOverlongPathIsNone() {
        assertThat(ReturnPath.of(Optional.empty())).isEmpty();
        assertThat(ReturnPath.of((String) null)).isEmpty();
        assertThat(ReturnPath.of("/mi-cuenta?q=" + "a".repeat(ReturnPath.MAX_LENGTH))).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void onlyAPlainSignInLandsThere() {
        java.time.Instant expiry = java.time.Instant.parse("2026-11-27T09:10:00Z");
        SignInState login = new SignInState("s", SignInState.Purpose.LOGIN, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), expiry, Optional.of("/agents/authorize/abc.def"));
        SignInState forged = new SignInState("s", SignInState.Purpose.LOGIN, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), expiry, Optional.of("//evil.example"));
        SignInState link = new SignInState("s", SignInState.Purpose.LINK, Optional.of("hash"), Optional.empty(),
                Optional.empty(), Optional.empty(), expiry, Optional.of("/agents/authorize/abc.def"));

        assertThat(login.landingPage()).isEqualTo("/agents/authorize/abc.def");
        assertThat(forged.landingPage()).isEqualTo("/");
        assertThat(link.landingPage()).isEqualTo("/");
    }
}
