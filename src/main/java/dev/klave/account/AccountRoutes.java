package dev.klave.account;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.http.Access;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.Json;
import dev.klave.http.Listing;
import dev.klave.http.RouteProvider;
import dev.klave.messages.Message;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The account routes of spec 1 §4: "Subjects", "Session and own account". */
public final class AccountRoutes implements RouteProvider {
    private static final String LISTING = "subjects";
    private static final Set<String> FILTERS = Set.of("q", "kind", "status", "admin", "id");
    private static final int MAX_TEXT = 200;
    private static final Set<String> PATCHABLE = Set.of("display_name", "email", "is_admin", "writes_need_approval");

    private final Accounts accounts;
    private final AccountLifecycle lifecycle;
    private final OwnAccount own;
    private final Links links;
    private final Sessions sessions;
    private final SignedIn signedIn;
    private final AccountViews views;

    public AccountRoutes(Accounts accounts, AccountLifecycle lifecycle, OwnAccount own, Links links, Sessions sessions,
            SignedIn signedIn, AccountViews views) {
        this.views = requireNonNull(views, "views is null");
        this.accounts = requireNonNull(accounts, "accounts is null");
        this.lifecycle = requireNonNull(lifecycle, "lifecycle is null");
        this.own = requireNonNull(own, "own is null");
        this.links = requireNonNull(links, "links is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.signedIn = requireNonNull(signedIn, "signedIn is null");
    }

    record CreateSubject(Optional<String> kind, String login, Optional<String> displayName, Optional<String> email,
            Optional<Boolean> isAdmin) {}

    record LinkToken(String token) {}

    record CompleteLink(String token, String password) {}

    record ChangePassword(String currentPassword, String newPassword) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/subjects", Access.ADMIN, this::list)
                .post("/api/subjects", Access.ADMIN, this::create)
                .patch("/api/subjects/{id}", Access.ADMIN, request -> ApiResponse.ok(views.subject(
                        accounts.update(id(request), changes(Json.readObject(request.body())), Principal.of(request)))))
                .post("/api/subjects/{id}/reset-link", Access.ADMIN, request -> {
                    IssuedLink link = accounts.resetLink(id(request), Principal.of(request));
                    return ApiResponse.ok(new AccountViews.ResetLinkView(link.link(), link.expiresAt()));
                })
                .post("/api/subjects/{id}/disable", Access.ADMIN, request -> ApiResponse.ok(views.subject(
                        lifecycle.disable(id(request), Optional.of(Principal.of(request)), Optional.empty()))))
                .post("/api/subjects/{id}/enable", Access.ADMIN, request -> ApiResponse.ok(views.subject(
                        lifecycle.enable(id(request), Principal.of(request)))))
                .delete("/api/subjects/{id}/forge", Access.ADMIN, request -> ApiResponse.ok(views.subject(
                        lifecycle.unlink(id(request), IdentityProvider.FORGE, Principal.of(request)))))
                .delete("/api/subjects/{id}/oidc", Access.ADMIN, request -> ApiResponse.ok(views.subject(
                        lifecycle.unlink(id(request), IdentityProvider.OIDC, Principal.of(request)))))
                .post("/api/subjects/{id}/logout", Access.ADMIN, request -> {
                    lifecycle.signOutEverywhere(id(request), Principal.of(request));
                    return ApiResponse.noContent();
                })
                .get("/api/me", Access.SESSION, request -> {
                    Principal caller = Principal.of(request);
                    return ApiResponse.ok(signedIn.view(own.me(caller), sessions.expiresAt(caller.sessionIdHash())));
                })
                .post("/api/me/password", Access.SESSION, request -> {
                    ChangePassword body = request.json(ChangePassword.class);
                    own.changePassword(Principal.of(request), body.currentPassword(), body.newPassword(),
                            request.clientAddress());
                    return ApiResponse.noContent();
                })
                .post("/api/auth/link", Access.ANONYMOUS, request -> ApiResponse.ok(
                        links.lookup(request.json(LinkToken.class).token())))
                .post("/api/auth/link/complete", Access.ANONYMOUS, request -> {
                    CompleteLink body = request.json(CompleteLink.class);
                    if (body.password() == null) {
                        throw Message.PASSWORD_REQUIRED.refusal();
                    }
                    return signedIn.answer(links.complete(body.token(), body.password(), request.clientAddress()));
                })
                .post("/api/auth/logout", Access.SESSION, request -> {
                    sessions.closeAll(Principal.of(request).subjectId());
                    return signedIn.signedOut();
                });
    }

    /**
     * Spec 1 §4: every person and bot. With {@code limit} or {@code cursor}, one page, by login,
     * {@code {items, next_cursor}}; filtered (whole or paged) by {@code q}, {@code kind},
     * {@code status} and {@code admin=true}.
     */
    private ApiResponse list(ApiRequest request) {
        Listing.onlyParameters(request, FILTERS);
        Optional<List<String>> ids = Listing.ids(request);
        if (ids.isPresent()) {
            return ApiResponse.ok(views.subjects(accounts.byIds(ids.get().stream().filter(SubjectId::isValid)
                    .map(SubjectId::new).toList())));
        }
        Optional<String> text = request.queryParameter("q").map(String::strip).filter(value -> !value.isEmpty());
        if (text.filter(value -> value.length() > MAX_TEXT).isPresent()) {
            throw Message.FILTER_INVALID.refusal("q", "como mucho " + MAX_TEXT + " caracteres");
        }
        Optional<SubjectKind> kind = request.queryParameter("kind").map(code -> switch (code) {
            case "person" -> SubjectKind.PERSON;
            case "bot" -> SubjectKind.BOT;
            default -> throw Message.FILTER_INVALID.refusal("kind", "person o bot");
        });
        Optional<Boolean> enabled = request.queryParameter("status").map(code -> switch (code) {
            case "enabled" -> true;
            case "disabled" -> false;
            default -> throw Message.FILTER_INVALID.refusal("status", "enabled o disabled");
        });
        boolean adminsOnly = request.queryParameter("admin").map(code -> switch (code) {
            case "true" -> true;
            case "false" -> false;
            default -> throw Message.FILTER_INVALID.refusal("admin", "true o false");
        }).orElse(false);
        SubjectFilter filter = new SubjectFilter(text, kind, enabled, adminsOnly);
        if (!Listing.paged(request)) {
            return ApiResponse.ok(views.subjects(accounts.list(filter, Optional.empty(), Integer.MAX_VALUE)));
        }
        int limit = Listing.limit(request);
        Optional<Login> after = Listing.cursor(request, LISTING, 1).map(fields -> {
            if (!Login.isValid(fields.getFirst())) {
                throw Message.CURSOR_INVALID.refusal();
            }
            return new Login(fields.getFirst());
        });
        List<Subject> rows = accounts.list(filter, after, limit + 1);
        List<Subject> shown = rows.size() > limit ? rows.subList(0, limit) : rows;
        Optional<String> next = rows.size() > limit
                ? Optional.of(Listing.encodeCursor(LISTING, List.of(shown.getLast().login().value())))
                : Optional.empty();
        return ApiResponse.ok(new Listing.Page<>(views.subjects(shown), next));
    }

    private ApiResponse create(ApiRequest request) {
        CreateSubject body = request.json(CreateSubject.class);
        if (body.login() == null) {
            throw Message.LOGIN_INVALID.refusal();
        }
        Login login = new Login(body.login());
        String kind = body.kind().orElse(SubjectKind.PERSON.code());
        if (kind.equals(SubjectKind.BOT.code())) {
            if (body.email().isPresent() || body.isAdmin().orElse(false)) {
                throw Message.BOT_FIELDS.refusal();
            }
            return ApiResponse.created(views.subject(
                    accounts.createBot(login, body.displayName(), Principal.of(request))));
        }
        if (!kind.equals(SubjectKind.PERSON.code())) {
            throw Message.KIND_INVALID.refusal();
        }
        IssuedLink invitation = accounts.createPerson(new NewPerson(login, body.displayName(), body.email(),
                body.isAdmin().orElse(false), false), Optional.of(Principal.of(request)));
        return ApiResponse.created(AccountViews.created(invitation));
    }

    private static SubjectId id(ApiRequest request) {
        try {
            return new SubjectId(request.pathParameter("id"));
        } catch (IllegalArgumentException e) {
            throw Message.USER_NOT_FOUND.refusal();
        }
    }

    /** A PATCH body: only the four fields, each of its own type; {@code "email": null} removes it. */
    private static SubjectChanges changes(ObjectNode body) {
        Json.refuseUnknownFields(body, PATCHABLE);
        Optional<String> displayName = optionalText(body.get("display_name"), false);
        Optional<String> email = optionalText(body.get("email"), true);
        return new SubjectChanges(displayName, email, optionalBoolean(body.get("is_admin")),
                optionalBoolean(body.get("writes_need_approval")));
    }

    private static Optional<Boolean> optionalBoolean(JsonNode node) {
        if (node != null && !node.isBoolean()) {
            throw Message.INVALID_JSON.refusal();
        }
        return Optional.ofNullable(node).map(JsonNode::booleanValue);
    }

    private static Optional<String> optionalText(JsonNode node, boolean nullClears) {
        if (node == null) {
            return Optional.empty();
        }
        if (node.isNull() && nullClears) {
            return Optional.of("");
        }
        if (!node.isTextual()) {
            throw Message.INVALID_JSON.refusal();
        }
        return Optional.of(node.textValue());
    }
}
