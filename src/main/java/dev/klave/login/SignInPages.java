package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.account.OpenedSession;
import dev.klave.account.SessionCookie;
import dev.klave.config.BaseUrl;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Where an external sign-in sends the browser, under the base URL's path (a front end may strip
 * it), and the session cookie it sets — {@code Secure} when the base URL is https.
 */
final class SignInPages {
    private final String basePath;
    private final boolean https;

    SignInPages(BaseUrl baseUrl) {
        requireNonNull(baseUrl, "baseUrl is null");
        this.basePath = baseUrl.path();
        this.https = baseUrl.isHttps();
    }

    /** A page of the web interface. */
    URI page(String path) {
        return URI.create(basePath + path);
    }

    /** The failure page; the login page keeps the return path, so trying again still lands there. */
    URI failure(String page, SignInError error, Optional<String> returnTo) {
        String next = page.equals("/login") ? returnTo.map(path -> "&next=" + URLEncoder.encode(path,
                StandardCharsets.UTF_8)).orElse("") : "";
        return page(page + "?error=" + URLEncoder.encode(error.code(), StandardCharsets.UTF_8) + next);
    }

    String sessionCookie(OpenedSession session) {
        return SessionCookie.set(session.cookieValue(), session.lifetime(), https);
    }
}
