package dev.klave.login;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.crypto.Hmac;
import dev.klave.testing.TestingClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The sign-in state cookie: signed, bound to its name, 10 minutes, never trusted when altered. */
class StateCookieTest {
    private static final byte[] KEY = new byte[32];
    private static final byte[] OTHER_KEY = Base64.getDecoder().decode("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");

    private final TestingClock clock = new TestingClock(Instant.parse("2026-11-27T09:00:00Z"));
    private final StateCookie forge = new StateCookie("service_forge_state", "/api/auth/forge/callback",
            new Hmac(KEY), true, clock);

    private SignInState state() {
        return new SignInState("s-123", SignInState.Purpose.LINK_OWN, Optional.empty(), Optional.of("session-hash"),
                Optional.of("verifier"), Optional.of("nonce"), forge.expiry());
    }

    private static String cookieHeader(String setCookie) {
        return setCookie.substring(0, setCookie.indexOf(';'));
    }

    @Test
    void whatIsSetIsReadBackWhole() {
        String set = forge.set(state());

        assertThat(set).contains("; Path=/api/auth/forge/callback; Max-Age=600; HttpOnly; SameSite=Lax; Secure");
        assertThat(forge.read(List.of("other=1; " + cookieHeader(set)))).contains(state());
    }

    @Test
    void anAlteredPayloadOrSignatureIsNotRead() {
        String value = cookieHeader(forge.set(state()));
        int dot = value.lastIndexOf('.');
        String payload = value.substring(value.indexOf('=') + 1, dot);
        String forged = new String(Base64.getUrlDecoder().decode(payload)).replace("LINK_OWN", "LOGIN");
        String swapped = "service_forge_state=" + Base64.getUrlEncoder().withoutPadding().encodeToString(forged.getBytes())
                + value.substring(dot);

        assertThat(forge.read(List.of(swapped))).isEmpty();
        assertThat(forge.read(List.of(value.substring(0, value.length() - 2) + "xx"))).isEmpty();
        assertThat(forge.read(List.of("service_forge_state=garbage"))).isEmpty();
    }

    @Test
    void anotherKeyOrAnotherMethodsCookieIsNotRead() {
        StateCookie otherKey = new StateCookie("service_forge_state", "/api/auth/forge/callback",
                new Hmac(OTHER_KEY), true, clock);
        StateCookie oidc = new StateCookie("service_oidc_state", "/api/auth/oidc/callback", new Hmac(KEY), true, clock);
        String value = cookieHeader(forge.set(state()));

        assertThat(otherKey.read(List.of(value))).isEmpty();
        assertThat(oidc.read(List.of(value.replace("service_forge_state", "service_oidc_state")))).isEmpty();
    }

    @Test
    void itExpiresAfterTenMinutes() {
        String value = cookieHeader(forge.set(state()));

        clock.advance(Duration.ofMinutes(10));

        assertThat(forge.read(List.of(value))).isEmpty();
    }

    @Test
    void clearingEndsItAtOnce() {
        assertThat(forge.clear()).isEqualTo("service_forge_state=; Path=/api/auth/forge/callback; Max-Age=0; HttpOnly; "
                + "SameSite=Lax; Secure");
    }

    @Test
    void theReturnPathTravelsInsideTheSignature() {
        SignInState login = new SignInState("s-9", SignInState.Purpose.LOGIN, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), forge.expiry(), Optional.of("/agents/authorize/abc.def"));
        String value = cookieHeader(forge.set(login));
        int dot = value.lastIndexOf('.');
        String payload = new String(Base64.getUrlDecoder().decode(value.substring(value.indexOf('=') + 1, dot)));
        String redirected = "service_forge_state=" + Base64.getUrlEncoder().withoutPadding().encodeToString(
                payload.replace("/agents/authorize/abc.def", "//evil.example").getBytes()) + value.substring(dot);

        assertThat(forge.read(List.of(value))).map(SignInState::landingPage).contains("/agents/authorize/abc.def");
        assertThat(forge.read(List.of(redirected))).isEmpty();
    }

    @Test
    void aCookieWrittenBeforeReturnPathsLandsOnTheDefaultPage() {
        String old = "{\"state\":\"s-1\",\"purpose\":\"LOGIN\",\"linkTokenHash\":null,\"sessionHash\":null,"
                + "\"codeVerifier\":null,\"nonce\":null,\"expiresAt\":" + forge.expiry().getEpochSecond() + "}";
        String payload = Base64.getUrlEncoder().withoutPadding().encodeToString(old.getBytes());
        String value = "service_forge_state=" + payload + "." + new Hmac(KEY).sign("service_forge_state." + payload);

        assertThat(forge.read(List.of(value))).map(SignInState::landingPage).contains("/");
    }
}
