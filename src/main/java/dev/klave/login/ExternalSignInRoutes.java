package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.http.Access;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiRoutes;
import dev.klave.http.OriginRule;
import dev.klave.http.RoutePolicy;
import dev.klave.messages.Message;
import java.util.List;
import java.util.Optional;

/**
 * The four routes every external provider has (spec 1 §4 "Login methods and forge login", spec 2
 * §4): {@code GET /api/auth/<p>/login} (with {@code ?prompt=select_account} for the account
 * picker, {@code ?next=} for the page to return to), {@code GET /api/auth/<p>/callback}, {@code POST /api/auth/<p>/link} from an invitation
 * or linking link, and {@code POST /api/me/<p>/link} for one's own account. While the provider is
 * off, all four answer 404 with its message, before anything else is checked.
 */
public final class ExternalSignInRoutes {
    private ExternalSignInRoutes() {}

    record LinkBody(String token) {}

    /** The callback's path for provider {@code code}: {@code {base_url}} + this is its redirect URI. */
    public static String callback(String code) {
        return "/api/auth/" + code + "/callback";
    }

    public static void register(ApiRoutes routes, String code, Optional<ExternalSignIn> signIn, Message off) {
        requireNonNull(off, "off is null");
        if (signIn.isEmpty()) {
            off(routes, code, off);
            return;
        }
        ExternalSignIn on = signIn.get();
        // ?next= is the page to come back to; one that is not Klave's own is dropped (ReturnPath).
        routes.get("/api/auth/" + code + "/login", Access.ANONYMOUS, request -> on.start(
                        request.queryParameter("prompt").filter("select_account"::equals).isPresent(),
                        ReturnPath.of(request.queryParameter("next"))).redirect())
                .get(callback(code), Access.ANONYMOUS, request -> on.callback(callbackOf(request)).redirect())
                .post("/api/auth/" + code + "/link", Access.ANONYMOUS,
                        request -> on.startLink(request.json(LinkBody.class).token()).url())
                .post("/api/me/" + code + "/link", Access.SESSION, request -> on.startOwnLink(Principal.of(request))
                        .url());
    }

    /**
     * Spec 1 §4: while the provider is off its four routes are 404 — whatever the method, origin,
     * body or session, so nothing about them is checked first.
     */
    private static void off(ApiRoutes routes, String code, Message off) {
        RoutePolicy policy = RoutePolicy.API.withOrigin(OriginRule.ANY);
        for (String path : List.of("/api/auth/" + code + "/login", callback(code), "/api/auth/" + code + "/link",
                "/api/me/" + code + "/link")) {
            for (String method : List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")) {
                routes.add(method, path, Access.ANONYMOUS, policy, request -> {
                    throw off.refusal();
                });
            }
        }
    }

    private static ExternalSignIn.Callback callbackOf(ApiRequest request) {
        return new ExternalSignIn.Callback(request.queryParameter("state"), request.queryParameter("code"),
                request.queryParameter("error"), request.headers("Cookie"), request.clientAddress(),
                request.header("Host"));
    }
}
