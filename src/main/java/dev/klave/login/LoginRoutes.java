package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SignedIn;
import dev.klave.http.Access;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.RouteProvider;

/** {@code POST /api/auth/login} and {@code GET /api/auth/methods} (spec 1 §4). */
public final class LoginRoutes implements RouteProvider {
    private final PasswordLogin passwordLogin;
    private final SignInMethods methods;
    private final SignedIn signedIn;

    public LoginRoutes(PasswordLogin passwordLogin, SignInMethods methods, SignedIn signedIn) {
        this.passwordLogin = requireNonNull(passwordLogin, "passwordLogin is null");
        this.methods = requireNonNull(methods, "methods is null");
        this.signedIn = requireNonNull(signedIn, "signedIn is null");
    }

    record Credentials(String login, String password) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.post("/api/auth/login", Access.ANONYMOUS, request -> {
            Credentials body = request.json(Credentials.class);
            return signedIn.answer(passwordLogin.signIn(body.login(), body.password(), request.clientAddress()));
        }).get("/api/auth/methods", Access.ANONYMOUS, request -> ApiResponse.ok(methods));
    }
}
