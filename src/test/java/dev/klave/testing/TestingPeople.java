package dev.klave.testing;

import dev.klave.account.IssuedLink;
import dev.klave.account.Login;
import dev.klave.account.NewPerson;
import java.net.http.HttpResponse;
import java.util.Optional;

/** People for tests: created the way the CLI creates them, signed in the way a browser signs in. */
public final class TestingPeople {
    public static final String PASSWORD = "correct horse battery staple";
    private static final java.util.concurrent.atomic.AtomicInteger ADDRESSES = new java.util.concurrent.atomic.AtomicInteger();

    private TestingPeople() {}

    /** Creates a person and returns their invitation link token ({@code kli_…}). */
    public static String invite(TestingKlave klave, String login, boolean admin) {
        return invite(klave, login, admin, false);
    }

    /** As {@link #invite(TestingKlave, String, boolean)}, marked break-glass (a password that works under a provider). */
    public static String invite(TestingKlave klave, String login, boolean admin, boolean breakGlass) {
        IssuedLink invitation = klave.accounts().createPerson(
                new NewPerson(new Login(login), Optional.empty(), Optional.empty(), admin, breakGlass), Optional.empty());
        return tokenOf(invitation.link());
    }

    public static String tokenOf(String link) {
        return link.substring(link.indexOf('#') + 1);
    }

    /** Creates a person, completes their invitation with {@link #PASSWORD}; returns the session's Cookie header. */
    public static String signUp(TestingKlave klave, String login, boolean admin) {
        return signUp(klave, login, admin, false);
    }

    /** As {@link #signUp(TestingKlave, String, boolean)}, break-glass when asked (needed while a provider is on). */
    public static String signUp(TestingKlave klave, String login, boolean admin, boolean breakGlass) {
        String token = invite(klave, login, admin, breakGlass);
        HttpResponse<String> completed = klave.http().send("POST", "/api/auth/link/complete",
                "{\"token\":\"" + token + "\",\"password\":\"" + PASSWORD + "\"}");
        if (completed.statusCode() != 200) {
            throw new AssertionError("sign-up of " + login + " failed: " + completed.body());
        }
        return cookieOf(completed);
    }

    public static String signIn(TestingHttp http, String login, String password) {
        HttpResponse<String> response = attempt(http, login, password);
        if (response.statusCode() != 200) {
            throw new AssertionError("sign-in of " + login + " failed: " + response.statusCode() + " " + response.body());
        }
        return cookieOf(response);
    }

    /**
     * One sign-in attempt from an address of its own (by {@code X-Forwarded-For}, for a Klave that
     * trusts 127.0.0.1 as a proxy), so that tests doing many sign-ins stay under the per-address
     * limit unless they mean to reach it.
     */
    public static HttpResponse<String> attempt(TestingHttp http, String login, String password) {
        int n = ADDRESSES.incrementAndGet();
        return http.send("POST", "/api/auth/login", "{\"login\":\"" + login + "\",\"password\":\"" + password + "\"}",
                "X-Forwarded-For", "198.51." + (n / 250 % 250) + "." + (n % 250 + 1));
    }

    /** The {@code Cookie} header a browser would send back after {@code response}. */
    public static String cookieOf(HttpResponse<String> response) {
        String setCookie = response.headers().firstValue("Set-Cookie").orElseThrow();
        return setCookie.substring(0, setCookie.indexOf(';'));
    }
}
