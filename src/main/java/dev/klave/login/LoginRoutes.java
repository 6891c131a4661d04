package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SignedIn;
import dev.klave.http.Access;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.RouteProvider;
import java.util.Optional;

/** {@code POST /api/auth/login} and {@code GET /api/auth/methods} (spec 1 §4). */
public final class LoginRoutes implements RouteProvider {
    private final PasswordLogin passwordLogin;
    private final SignInMethods methods;
    private final SignedIn signedIn;

    private final Optional<String> contact;

    /** @param contact {@code SERVICE_ACCESS_CONTACT}: whom someone without an account should ask */
    public LoginRoutes(PasswordLogin passwordLogin, SignInMethods methods, SignedIn signedIn, Optional<String> contact) {
        this.contact = requireNonNull(contact, "contact is null");
        this.passwordLogin = requireNonNull(passwordLogin, "passwordLogin is null");
        this.methods = requireNonNull(methods, "methods is null");
        this.signedIn = requireNonNull(signedIn, "signedIn is null");
    }

    record Credentials(String login, String password) {}

    /** What the login screen shows someone no account matches (spec 2 §7 {@code unknown_account}). */
    record Help(Optional<String> contact) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.post("/api/auth/login", Access.ANONYMOUS, request -> {
            Credentials body = request.json(Credentials.class);
            return signedIn.answer(passwordLogin.signIn(body.login(), body.password(), request.clientAddress()));
        }).get("/api/auth/methods", Access.ANONYMOUS, request -> ApiResponse.ok(methods))
                .get("/api/auth/help", Access.ANONYMOUS, request -> ApiResponse.ok(new Help(contact)));
    }
}
