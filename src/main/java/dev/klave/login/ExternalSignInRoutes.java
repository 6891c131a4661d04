package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.http.Access;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiRoutes;
import dev.klave.messages.Message;
import java.util.Optional;

/**
 * The four routes every external provider has (spec 1 §4 "Login methods and forge login", spec 2
 * §4): {@code GET /api/auth/<p>/login} (with {@code ?prompt=select_account} for the account
 * picker), {@code GET /api/auth/<p>/callback}, {@code POST /api/auth/<p>/link} from an invitation
 * or linking link, and {@code POST /api/me/<p>/link} for one's own account. While the provider is
 * off, all four answer 404 with its message — the last one before any session is asked for.
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
        routes.get("/api/auth/" + code + "/login", Access.ANONYMOUS, request -> on(signIn, off).start(
                        request.queryParameter("prompt").filter("select_account"::equals).isPresent()).redirect())
                .get(callback(code), Access.ANONYMOUS, request -> on(signIn, off).callback(callbackOf(request))
                        .redirect())
                .post("/api/auth/" + code + "/link", Access.ANONYMOUS, request -> {
                    LinkBody body = request.json(LinkBody.class);
                    return on(signIn, off).startLink(body.token()).url();
                });
        if (signIn.isPresent()) {
            routes.post("/api/me/" + code + "/link", Access.SESSION,
                    request -> signIn.get().startOwnLink(Principal.of(request)).url());
        } else {
            routes.post("/api/me/" + code + "/link", Access.ANONYMOUS, request -> {
                throw off.refusal();
            });
        }
    }

    private static ExternalSignIn on(Optional<ExternalSignIn> signIn, Message off) {
        return signIn.orElseThrow(off::refusal);
    }

    private static ExternalSignIn.Callback callbackOf(ApiRequest request) {
        return new ExternalSignIn.Callback(request.queryParameter("state"), request.queryParameter("code"),
                request.queryParameter("error"), request.headers("Cookie"), request.clientAddress(),
                request.header("Host"));
    }
}
