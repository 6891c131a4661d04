package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.access.Grant;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.Login;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectKind;
import dev.klave.cluster.ClusterId;
import dev.klave.credential.Credential;
import dev.klave.store.JdbiCredentialStore;
import dev.klave.store.JdbiGrantStore;
import dev.klave.store.JdbiSubjectStore;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The credentials, grants and subjects listings page by page (README "Listings page by page"):
 * every row once, in the order of the whole list; filters applied by the server; the owner's login
 * on every row; unknown parameters, bad limits and forged cursors refused; and each person still
 * sees only their own (spec 1 §4).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ListingsApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private TestingKlave klave;
    private TestingHttp http;
    private String admin;
    private String ana;
    private SubjectId anaId;
    private final Map<String, String> loginOf = new HashMap<>();
    private final List<SubjectId> people = new ArrayList<>();

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(NOW), settings -> settings);
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
        ana = TestingPeople.signUp(klave, "ana", false);
        for (String cluster : List.of("prod-1", "prod-2")) {
            HttpResponse<String> created = http.send("POST", "/api/clusters", "{\"id\":\"" + cluster
                    + "\",\"name\":\"" + cluster + "\"}", "Cookie", admin);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        }
        var database = klave.klave().database();
        JdbiSubjectStore subjects = new JdbiSubjectStore(database);
        anaId = subjects.findByLogin(new Login("ana")).orElseThrow().id();
        loginOf.put(anaId.value(), "ana");
        for (int i = 0; i < 30; i++) {
            String login = String.format("gente%02d", i);
            Subject subject = i < 25
                    ? Subject.newPerson(new Login(login), "Persona " + i, Optional.of(login + "@example.com"), false,
                            false, NOW)
                    : new Subject(SubjectId.random(), new Login(login), SubjectKind.BOT, "Bot " + i, Optional.empty(),
                            false, false, Optional.empty(), Optional.empty(), NOW, false);
            subjects.create(subject);
            if (i % 10 == 3) {
                subjects.update(subject.id(), changed -> changed.withDisabledAt(Optional.of(NOW)));
            }
            people.add(subject.id());
            loginOf.put(subject.id().value(), login);
        }
        people.add(anaId);
        JdbiCredentialStore credentials = new JdbiCredentialStore(database);
        JdbiGrantStore grants = new JdbiGrantStore(database);
        for (int i = 0; i < 157; i++) {
            SubjectId owner = people.get(i % people.size());
            // Groups of four share a millisecond: the id orders them and the cursor must keep its place.
            Instant created = NOW.minusSeconds(3600).minusSeconds(i / 4);
            Optional<ClusterId> cluster = i % 3 == 0 ? Optional.of(new ClusterId("prod-1")) : Optional.empty();
            Duration lifetime = i % 7 == 0 ? Duration.ofMinutes(30) : Duration.ofDays(2);
            credentials.create(new Credential(UUID.randomUUID().toString(), "hash-" + UUID.randomUUID(), owner,
                    cluster, i % 11 == 0 ? "portátil " + i : "ci " + i, "", created, created.plus(lifetime),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        }
        for (int i = 0; i < 90; i++) {
            Grant grant = new Grant(UUID.randomUUID().toString(), people.get(i % people.size()),
                    new ClusterId(i % 2 == 0 ? "prod-1" : "prod-2"), Tier.VIEW, new Scope("ns-" + i), Optional.empty(),
                    "", NOW.minusSeconds(i / 3), Optional.empty(), Optional.empty(), Optional.empty());
            grants.create(grant);
            if (i % 9 == 0) {
                grants.revoke(grant.id(), NOW, "admin");
            }
        }
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(response.body(), e);
        }
    }

    private JsonNode ok(String path, String cookie) {
        HttpResponse<String> response = http.get(path, "Cookie", cookie);
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return json(response);
    }

    /** Every page of {@code path} (which has a query already), following next_cursor to the end. */
    private List<JsonNode> allPages(String path, int limit, String cookie) {
        List<JsonNode> rows = new ArrayList<>();
        String next = null;
        int pages = 0;
        do {
            JsonNode page = ok(path + "&limit=" + limit + (next == null ? "" : "&cursor=" + next), cookie);
            assertThat(page.get("items").size()).isLessThanOrEqualTo(limit);
            page.get("items").forEach(rows::add);
            next = page.get("next_cursor").isNull() ? null : page.get("next_cursor").asText();
            assertThat(next == null || next.matches("[A-Za-z0-9_-]+")).as("base64url").isTrue();
            assertThat(++pages).as("pages never end").isLessThan(500);
        } while (next != null);
        return rows;
    }

    private static List<String> ids(Iterable<JsonNode> rows) {
        List<String> ids = new ArrayList<>();
        rows.forEach(row -> ids.add(row.get("id").asText()));
        return ids;
    }

    private static List<String> logins(Iterable<JsonNode> rows) {
        List<String> logins = new ArrayList<>();
        rows.forEach(row -> logins.add(row.get("login").asText()));
        return logins;
    }

    private void assertRefused(String path, String cookie, int status, String message) {
        HttpResponse<String> response = http.get(path, "Cookie", cookie);
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(status);
        assertThat(json(response).get("error").asText()).isEqualTo(message);
    }

    @Test
    void pagingThroughCredentialsReturnsEachRowOnceInTheOrderOfTheWholeList() {
        JsonNode whole = ok("/api/credentials", admin);
        assertThat(whole.isArray()).as("without limit: spec 1 §4's list").isTrue();
        assertThat(whole.size()).isEqualTo(157);

        for (int limit : new int[] {1, 7, 50, 500}) {
            List<JsonNode> paged = allPages("/api/credentials?", limit, admin);
            assertThat(ids(paged)).as("limit " + limit).containsExactlyElementsOf(ids(whole));
        }
        for (JsonNode row : whole) {
            assertThat(row.get("subject_login").asText()).isEqualTo(loginOf.get(row.get("subject_id").asText()));
        }
    }

    @Test
    void credentialsAreFilteredByTheServer() {
        List<JsonNode> revoked = allPages("/api/credentials?status=expired", 10, admin);
        assertThat(revoked).hasSize(23).allSatisfy(row -> assertThat(row.get("status").asText()).isEqualTo("expired"));
        List<JsonNode> active = allPages("/api/credentials?status=active&cluster=prod-1", 10, admin);
        assertThat(active).isNotEmpty().allSatisfy(row -> {
            assertThat(row.get("status").asText()).isEqualTo("active");
            assertThat(row.get("cluster_id").asText()).isEqualTo("prod-1");
        });
        SubjectId owner = people.get(4);
        List<JsonNode> byLogin = allPages("/api/credentials?subject=" + loginOf.get(owner.value()), 2, admin);
        List<JsonNode> byId = allPages("/api/credentials?subject=" + owner.value(), 2, admin);
        assertThat(ids(byLogin)).hasSize(5).containsExactlyElementsOf(ids(byId));
        assertThat(byId).allSatisfy(row -> assertThat(row.get("subject_id").asText()).isEqualTo(owner.value()));
        List<JsonNode> text = allPages("/api/credentials?q=" + URLEncoder.encode("PORTÁTIL", StandardCharsets.UTF_8),
                5, admin);
        assertThat(text).hasSize(15).allSatisfy(row -> assertThat(row.get("name").asText()).startsWith("portátil"));
        assertThat(ok("/api/credentials?q=gente04", admin).size()).as("by the owner's login, whole list").isEqualTo(5);
        assertThat(ok("/api/credentials?cluster=no_such", admin).size()).isZero();
    }

    @Test
    void aPersonPagesThroughTheirOwnCredentialsOnly() {
        List<JsonNode> own = allPages("/api/credentials?", 2, ana);
        assertThat(own).hasSize(5).allSatisfy(row -> assertThat(row.get("subject_id").asText())
                .isEqualTo(anaId.value()));
        assertThat(ids(allPages("/api/credentials?subject=ana", 3, ana))).containsExactlyElementsOf(ids(own));
        assertThat(ok("/api/credentials", ana).size()).isEqualTo(5);
        String someoneElse = people.getFirst().value();
        assertRefused("/api/credentials?subject=" + someoneElse, ana, 403,
                "solo un administrador puede operar sobre credenciales de otros");
        assertRefused("/api/credentials?limit=5&subject=gente01", ana, 403,
                "solo un administrador puede operar sobre credenciales de otros");
        assertRefused("/api/subjects?limit=5", ana, 403, "solo para administradores");
    }

    @Test
    void pagingThroughGrantsKeepsTheSpecsFiltersAndTheHolder() {
        JsonNode whole = ok("/api/grants?include_revoked=true", admin);
        assertThat(whole.isArray()).isTrue();
        assertThat(whole.size()).isEqualTo(90);
        assertThat(ids(allPages("/api/grants?include_revoked=true", 8, admin))).containsExactlyElementsOf(ids(whole));
        assertThat(allPages("/api/grants?cluster=prod-2", 8, admin)).hasSize(40)
                .allSatisfy(row -> {
                    assertThat(row.get("cluster_id").asText()).isEqualTo("prod-2");
                    assertThat(row.get("revoked_at").isNull()).isTrue();
                });
        SubjectId disabled = people.get(3);
        List<JsonNode> held = allPages("/api/grants?subject=" + loginOf.get(disabled.value()), 1, admin);
        assertThat(held).isNotEmpty().allSatisfy(row -> {
            assertThat(row.get("subject_login").asText()).isEqualTo("gente03");
            assertThat(row.get("active").asBoolean()).as("a disabled holder's grants do not count").isFalse();
        });
        assertThat(ids(allPages("/api/grants?", 20, ana))).containsExactlyElementsOf(ids(ok("/api/grants", ana)));
        assertRefused("/api/grants?limit=3&subject=gente01", ana, 403, "solo puedes consultar tus propios permisos");
    }

    @Test
    void pagingThroughSubjectsGoesByLoginWithFilters() {
        JsonNode whole = ok("/api/subjects", admin);
        assertThat(whole.isArray()).isTrue();
        assertThat(logins(allPages("/api/subjects?", 4, admin))).containsExactlyElementsOf(logins(whole)).hasSize(32);
        assertThat(logins(allPages("/api/subjects?kind=bot", 2, admin)))
                .containsExactly("gente25", "gente26", "gente27", "gente28", "gente29");
        assertThat(logins(allPages("/api/subjects?status=disabled", 2, admin)))
                .containsExactly("gente03", "gente13", "gente23");
        assertThat(logins(allPages("/api/subjects?q=GENTE1&kind=person&status=enabled", 3, admin)))
                .containsExactly("gente10", "gente11", "gente12", "gente14", "gente15", "gente16", "gente17",
                        "gente18", "gente19");
        assertThat(logins(ok("/api/subjects?q=persona%2022", admin))).containsExactly("gente22");
        assertThat(logins(allPages("/api/subjects?admin=true", 1, admin))).containsExactly("root");
        JsonNode owner = allPages("/api/subjects?q=gente04", 1, admin).getFirst();
        assertThat(owner.get("active_credentials").asInt()).as("counted for the page, in one query").isEqualTo(4);
    }

    /** What the audit table and the pickers ask (issue 32): the names behind a page's ids, not the whole list. */
    @Test
    void idsAreLookedUpByKeyEachPersonSeeingOnlyTheirOwn() {
        JsonNode whole = ok("/api/credentials", admin);
        List<String> three = List.of(whole.get(40).get("id").asText(), whole.get(2).get("id").asText(),
                whole.get(17).get("id").asText());
        JsonNode named = ok("/api/credentials?id=" + three.get(0) + "&id=" + three.get(1) + "&id=" + three.get(2)
                + "&id=" + three.get(1) + "&id=no-such-credential", admin);
        assertThat(ids(named)).as("newest first, once each, the unknown left out")
                .containsExactly(three.get(1), three.get(2), three.get(0));
        assertThat(named.get(0).get("subject_login").asText())
                .isEqualTo(loginOf.get(named.get(0).get("subject_id").asText()));

        String anasOwn = ok("/api/credentials", ana).get(0).get("id").asText();
        String someoneElses = ids(whole).stream().filter(id -> !id.equals(anasOwn)).filter(id -> {
            for (JsonNode row : whole) {
                if (row.get("id").asText().equals(id)) {
                    return !row.get("subject_id").asText().equals(anaId.value());
                }
            }
            return false;
        }).findFirst().orElseThrow();
        assertThat(ids(ok("/api/credentials?id=" + anasOwn + "&id=" + someoneElses, ana)))
                .as("a person's lookup names only their own").containsExactly(anasOwn);

        SubjectId bot = people.get(27);
        assertThat(logins(ok("/api/subjects?id=" + bot.value() + "&id=" + anaId.value() + "&id=not-a-uuid", admin)))
                .containsExactly("ana", "gente27");
        assertRefused("/api/subjects?id=" + anaId.value(), ana, 403, "solo para administradores");

        String tooMany = "id=x&".repeat(101);
        for (String path : List.of("/api/credentials?" + tooMany, "/api/subjects?" + tooMany,
                "/api/credentials?id=x&limit=5", "/api/subjects?id=x&q=ana", "/api/credentials?id=")) {
            assertRefused(path, admin, 400, "id no válido: usa de 1 a 100 ids, sin otros filtros ni página");
        }
    }

    @Test
    void unknownParametersAreRefusedNotIgnored() {
        assertRefused("/api/credentials?owner=x", admin, 400, "parámetro desconocido: owner");
        assertRefused("/api/credentials?state=active", ana, 400, "parámetro desconocido: state");
        assertRefused("/api/grants?subject=ana&page=2", admin, 400, "parámetro desconocido: page");
        assertRefused("/api/subjects?login=ana", admin, 400, "parámetro desconocido: login");
        assertRefused("/api/credentials?status=caducada", admin, 400,
                "status no válido: usa active, revoked o expired");
        assertRefused("/api/subjects?kind=robot", admin, 400, "kind no válido: usa person o bot");
        assertRefused("/api/subjects?status=off", admin, 400, "status no válido: usa enabled o disabled");
        assertRefused("/api/subjects?admin=yes", admin, 400, "admin no válido: usa true o false");
        assertRefused("/api/credentials?q=" + "x".repeat(201), admin, 400, "q no válido: usa como mucho 200 caracteres");
    }

    @Test
    void limitsOutOfRangeAndForgedOrGarbledCursorsAreRefused() {
        for (String limit : List.of("0", "501", "-1", "abc", "", "1e2", "0050")) {
            for (String listing : List.of("credentials", "grants", "subjects")) {
                assertRefused("/api/" + listing + "?limit=" + limit, admin, 400,
                        "limit no válido: usa un número de 1 a 500");
            }
        }
        String grantsCursor = ok("/api/grants?limit=1", admin).get("next_cursor").asText();
        String subjectsCursor = ok("/api/subjects?limit=1", admin).get("next_cursor").asText();
        List<String> forged = List.of("garbled!", "%00", "AAAA", grantsCursor, subjectsCursor, grantsCursor + "A",
                cursor("[\"credentials\",\"1795600800000\"]"),
                cursor("[\"credentials\",\"tomorrow\",\"" + UUID.randomUUID() + "\"]"),
                cursor("[\"credentials\",\"1795600800000\",\"not-an-id\"]"),
                cursor("[\"credentials\",1795600800000,\"" + UUID.randomUUID() + "\"]"),
                cursor("{\"credentials\":1}"),
                cursor("[\"credentials\", \"1795600800000\", \"" + UUID.randomUUID() + "\"]"),
                Base64.getUrlEncoder().encodeToString(("[\"credentials\",\"1795600800000\",\"" + UUID.randomUUID()
                        + "\"]").getBytes(StandardCharsets.UTF_8)).replace("=", "") + "==");
        for (String cursor : forged) {
            assertRefused("/api/credentials?limit=5&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8), admin,
                    400, "cursor no válido: usa el next_cursor de la página anterior");
        }
        assertRefused("/api/subjects?cursor=" + cursor("[\"subjects\",\"NOT A LOGIN\"]"), admin, 400,
                "cursor no válido: usa el next_cursor de la página anterior");
        String valid = cursor("[\"credentials\",\"1795600800000\",\"" + UUID.randomUUID() + "\"]");
        assertThat(ok("/api/credentials?cursor=" + valid, admin).get("items").size())
                .as("a well-formed key is a place in the list, whoever wrote it; the default page is 50").isEqualTo(50);
    }

    private static String cursor(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
