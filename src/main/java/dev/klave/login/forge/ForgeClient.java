package dev.klave.login.forge;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.config.ForgeSettings;
import dev.klave.messages.Untrusted;
import dev.klave.outbound.Answer;
import dev.klave.outbound.OutboundFailure;
import dev.klave.outbound.OutboundHttp;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * {@link ForgeApi} over HTTPS ({@link OutboundHttp}): JSON, each call bounded to 5 s in all
 * (connecting, the head and the whole body) and 4 MiB of answer counted while reading, and no
 * token in any message or log line. App calls use an installation token, fetched with the App
 * JWT and reused until a few minutes before it expires.
 */
public final class ForgeClient implements ForgeApi {
    static final Duration DEADLINE = Duration.ofSeconds(5);
    /** A page of members; the forge's maximum. */
    static final int PAGE_SIZE = 100;
    /** Installation tokens last an hour; a fresh one is fetched when less than this is left. */
    static final Duration TOKEN_MARGIN = Duration.ofMinutes(5);
    /** Far more members than any organisation Klave serves; a loop of {@code next} links stops here. */
    private static final int MAX_PAGES = 1_000;
    private static final long ANSWER_LIMIT = 4L * 1024 * 1024;
    private static final Pattern NEXT_LINK = Pattern.compile("<([^>]+)>\\s*;\\s*rel=\"next\"");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ForgeSettings settings;
    private final OutboundHttp http;
    private final AppJwt appJwt;
    private final Clock clock;
    private final Object tokenLock = new Object();
    private InstallationToken installationToken;

    public ForgeClient(ForgeSettings settings, SSLContext tls, Clock clock) {
        this.settings = requireNonNull(settings, "settings is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.http = OutboundHttp.over(requireNonNull(tls, "tls is null"), DEADLINE, ANSWER_LIMIT);
        this.appJwt = new AppJwt(settings.appId(), settings.privateKey(), clock);
    }

    private record InstallationToken(String value, Instant expiresAt) {}

    @Override
    public URI authorizationUrl(String state, URI redirectUri) {
        return URI.create(settings.webUrl() + "/login/oauth/authorize?client_id=" + encode(settings.clientId())
                + "&redirect_uri=" + encode(redirectUri.toString()) + "&state=" + encode(state));
    }

    @Override
    public String exchangeCode(String code, URI redirectUri) throws ForgeUnavailableException, CodeRejectedException {
        String form = "client_id=" + encode(settings.clientId())
                + "&client_secret=" + encode(settings.clientSecret().reveal())
                + "&code=" + encode(code)
                + "&redirect_uri=" + encode(redirectUri.toString());
        HttpRequest request = HttpRequest.newBuilder(URI.create(settings.webUrl() + "/login/oauth/access_token"))
                .header("Accept", "application/json")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build();
        JsonNode answer = expectOk(send(request, "code exchange"), "code exchange");
        // The forge answers a bad, spent or expired code with 200 and an error field.
        if (answer.hasNonNull("error")) {
            throw new CodeRejectedException(answer.get("error").asText());
        }
        String token = answer.path("access_token").asText("");
        if (token.isEmpty()) {
            throw new ForgeUnavailableException("code exchange: the answer holds no access_token");
        }
        return token;
    }

    @Override
    public ForgeUser user(String personToken) throws ForgeUnavailableException {
        JsonNode answer = expectOk(send(api("/user", personToken), "GET /user"), "GET /user");
        return toUser(answer, "GET /user");
    }

    @Override
    public Optional<Membership> membership(String login) throws ForgeUnavailableException {
        String what = "GET /orgs/{org}/memberships/{login}";
        Reply reply = asInstallation(URI.create(settings.apiUrl() + "/orgs/" + encode(settings.org())
                + "/memberships/" + encode(login)), what);
        if (reply.status() == 404) {
            return Optional.empty();
        }
        String state = expectOk(reply, what).path("state").asText("");
        return switch (state) {
            case "active" -> Optional.of(Membership.ACTIVE);
            case "pending" -> Optional.of(Membership.PENDING);
            default -> throw new ForgeUnavailableException(what + ": unknown state " + Untrusted.text(state));
        };
    }

    @Override
    public Optional<Boolean> twoFactorRequired() throws ForgeUnavailableException {
        JsonNode org = expectOk(asInstallation(URI.create(settings.apiUrl() + "/orgs/" + encode(settings.org())),
                "GET /orgs/{org}"), "GET /orgs/{org}");
        JsonNode required = org.get("two_factor_requirement_enabled");
        // Absent (or null) without the Administration permission: Klave cannot tell.
        return required == null || required.isNull() ? Optional.empty() : Optional.of(required.asBoolean());
    }

    @Override
    public List<ForgeUser> members() throws ForgeUnavailableException {
        List<ForgeUser> members = new ArrayList<>();
        URI next = URI.create(settings.apiUrl() + "/orgs/" + encode(settings.org()) + "/members?per_page=" + PAGE_SIZE);
        for (int page = 1; next != null; page++) {
            if (page > MAX_PAGES) {
                throw new ForgeUnavailableException("GET /orgs/{org}/members: more than " + MAX_PAGES + " pages");
            }
            String what = "GET /orgs/{org}/members page " + page;
            Reply reply = asInstallation(next, what);
            JsonNode list = expectOk(reply, what);
            if (!list.isArray()) {
                throw new ForgeUnavailableException(what + ": not a list");
            }
            for (JsonNode member : list) {
                members.add(toUser(member, what));
            }
            next = nextPage(reply, what);
        }
        return List.copyOf(members);
    }

    /** RFC 8288 {@code Link} header: the {@code rel="next"} target, on the API's own origin only. */
    private URI nextPage(Reply reply, String what) throws ForgeUnavailableException {
        for (String link : reply.links()) {
            Matcher matcher = NEXT_LINK.matcher(link);
            if (matcher.find()) {
                URI next = URI.create(matcher.group(1));
                URI api = settings.apiUrl();
                if (!api.getScheme().equals(next.getScheme()) || !api.getAuthority().equals(next.getAuthority())) {
                    // The installation token goes with the request: never to another host.
                    throw new ForgeUnavailableException(what + ": next page on another host");
                }
                return next;
            }
        }
        return null;
    }

    @Override
    public void installationChanged() {
        synchronized (tokenLock) {
            installationToken = null;
        }
    }

    /**
     * A GET with the installation token. The forge revokes an installation's tokens when the App is
     * uninstalled or suspended: a 401 drops the cached token and the call is tried once more with a
     * new one (which then fails plainly if the App is gone), so a reinstalled App works at once.
     */
    private Reply asInstallation(URI uri, String what) throws ForgeUnavailableException {
        String token = installationToken();
        Reply reply = send(apiRequest(uri, token), what);
        if (reply.status() != 401) {
            return reply;
        }
        synchronized (tokenLock) {
            if (installationToken != null && installationToken.value().equals(token)) {
                installationToken = null;
            }
        }
        return send(apiRequest(uri, installationToken()), what);
    }

    /** An installation token of the App on the organisation, reused until shortly before it expires. */
    private String installationToken() throws ForgeUnavailableException {
        synchronized (tokenLock) {
            Instant now = clock.instant();
            if (installationToken != null && installationToken.expiresAt().minus(TOKEN_MARGIN).isAfter(now)) {
                return installationToken.value();
            }
            String jwt = appJwt.sign();
            String what = "GET /orgs/{org}/installation";
            Reply installation = send(api("/orgs/" + encode(settings.org()) + "/installation", jwt), what);
            if (installation.status() == 404) {
                throw new ForgeUnavailableException("the App is not installed on the organisation " + settings.org());
            }
            long id = expectOk(installation, what).path("id").asLong(0);
            if (id <= 0) {
                throw new ForgeUnavailableException(what + ": no installation id");
            }
            String create = "POST /app/installations/{id}/access_tokens";
            HttpRequest request = HttpRequest.newBuilder(URI.create(settings.apiUrl() + "/app/installations/" + id
                            + "/access_tokens"))
                        .header("Accept", "application/vnd.github+json")
                    .header("Authorization", "Bearer " + jwt)
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build();
            Reply reply = send(request, create);
            if (reply.status() != 201 && reply.status() != 200) {
                throw failure(reply, create);
            }
            JsonNode answer = read(reply, create);
            String token = answer.path("token").asText("");
            Instant expiresAt;
            try {
                expiresAt = Instant.parse(answer.path("expires_at").asText(""));
            } catch (java.time.format.DateTimeParseException e) {
                throw new ForgeUnavailableException(create + ": unreadable expires_at");
            }
            if (token.isEmpty()) {
                throw new ForgeUnavailableException(create + ": no token");
            }
            installationToken = new InstallationToken(token, expiresAt);
            return token;
        }
    }

    private HttpRequest api(String path, String bearer) {
        return apiRequest(URI.create(settings.apiUrl() + path), bearer);
    }

    private static HttpRequest apiRequest(URI uri, String bearer) {
        return HttpRequest.newBuilder(uri)
                .header("Accept", "application/vnd.github+json")
                .header("X-GitHub-Api-Version", "2022-11-28")
                .header("Authorization", "Bearer " + bearer)
                .GET()
                .build();
    }

    private record Reply(int status, byte[] body, List<String> links) {}

    private Reply send(HttpRequest request, String what) throws ForgeUnavailableException {
        try {
            Answer answer = http.send(request);
            return new Reply(answer.status(), answer.body(), answer.headers().allValues("Link"));
        } catch (OutboundFailure e) {
            throw new ForgeUnavailableException(what + ": " + e.getMessage(), e);
        }
    }

    private static JsonNode expectOk(Reply reply, String what) throws ForgeUnavailableException {
        if (reply.status() != 200) {
            throw failure(reply, what);
        }
        return read(reply, what);
    }

    private static ForgeUnavailableException failure(Reply reply, String what) {
        return new ForgeUnavailableException(what + ": HTTP " + reply.status());
    }

    private static JsonNode read(Reply reply, String what) throws ForgeUnavailableException {
        try {
            return JSON.readTree(reply.body());
        } catch (IOException e) {
            throw new ForgeUnavailableException(what + ": the answer is not JSON");
        }
    }

    private static ForgeUser toUser(JsonNode node, String what) throws ForgeUnavailableException {
        long id = node.path("id").asLong(0);
        String login = node.path("login").asText("");
        if (id <= 0 || login.isEmpty()) {
            throw new ForgeUnavailableException(what + ": an account without id or login");
        }
        return new ForgeUser(id, login);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
