package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.http.ApiResponse;

/** The answer of every way of signing in: the account, and the cookie that keeps it signed in. */
public final class SignedIn {
    private final OwnAccount own;
    private final AccountViews views;
    private final boolean secureCookies;

    public SignedIn(OwnAccount own, AccountViews views, boolean secureCookies) {
        this.own = requireNonNull(own, "own is null");
        this.views = requireNonNull(views, "views is null");
        this.secureCookies = secureCookies;
    }

    public ApiResponse answer(OpenedSession session) {
        return ApiResponse.ok(view(session.subject(), java.util.Optional.of(session.expiresAt())))
                .withHeader("Set-Cookie", SessionCookie.set(session.cookieValue(), session.lifetime(), secureCookies));
    }

    public ApiResponse signedOut() {
        return ApiResponse.noContent().withHeader("Set-Cookie", SessionCookie.clear(secureCookies));
    }

    public AccountViews.MeView view(Subject subject) {
        return views.me(subject, own.canUsePassword(subject));
    }

    /** The account as {@code GET /api/me} shows it: with when the asking session ends. */
    public AccountViews.MeView view(Subject subject, java.util.Optional<java.time.Instant> sessionExpiresAt) {
        return views.me(subject, own.canUsePassword(subject), sessionExpiresAt);
    }
}
