package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.messages.Message;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Routes mounted under prefixes of their own, each with its policy: body limit and type (form,
 * raw), origin rule, cross-origin reads with preflight, plain-text errors, the challenge of every
 * 401, repeated headers and redirects — seen from a client against a real server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RoutePolicyTest {
    private static final String CHALLENGE = "Bearer resource_metadata=\"https://klave.example.com/.well-known/x\"";

    private TestingKlave klave;
    private TestingHttp http;

    record FormEcho(String grantType, List<String> scope) {}

    @BeforeAll
    void start() {
        RoutePolicy tool = RoutePolicy.MACHINE.withBody(BodyType.JSON, RoutePolicy.LARGE_BODY_LIMIT)
                .withOrigin(OriginRule.SAME_ORIGIN_ALWAYS).withChallenge(CHALLENGE);
        RoutePolicy token = RoutePolicy.MACHINE.withBody(BodyType.FORM, RoutePolicy.API_BODY_LIMIT)
                .readableCrossOrigin();
        RoutePolicy page = RoutePolicy.MACHINE.withErrors(ErrorFormat.PLAIN_TEXT);
        klave = TestingKlave.start(new TestingClock(), settings -> settings
                        .with("SERVICE_BASE_URL", "https://klave.example.com"),
                routes -> routes.mount("/probe-tool", tool).mount("/probe-oauth", token.withErrors(ErrorFormat.JSON))
                        .add("POST", "/probe-tool", Access.ANONYMOUS, tool, request -> {
                            // As /mcp does: the route resolves its bearer itself.
                            if (request.header("Authorization").isEmpty()) {
                                throw Message.TOKEN_MISSING.refusal();
                            }
                            return ApiResponse.ok(Map.of("size", request.body().length));
                        })
                        .add("POST", "/probe-oauth/token", Access.ANONYMOUS, token, request -> ApiResponse.ok(
                                new FormEcho(request.formField("grant_type").orElse("?"), request.formFields("scope"))))
                        .add("GET", "/probe-oauth/authorize", Access.ANONYMOUS, page, request -> {
                            throw Message.NOT_FOUND.refusal();
                        })
                        .add("GET", "/probe-oauth/two-cookies", Access.ANONYMOUS, page, request ->
                                ApiResponse.redirect("/somewhere?x=1").withCookie("a=1; Path=/").withCookie("b=2; Path=/")));
        http = klave.http();
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    @Test
    void aBearerRouteWithoutATokenIs401WithTheRoutesChallenge() {
        HttpResponse<String> response = http.send("POST", "/probe-tool", "{}");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).contains(CHALLENGE);
        assertThat(response.body()).isEqualTo("{\"error\":\"hace falta un token (Authorization: Bearer klt_...)\"}");
    }

    @Test
    void aRouteThatRefusesForeignOriginsRefusesReadsAndWritesAlike() {
        HttpResponse<String> foreign = http.send("POST", "/probe-tool", "{}", "Origin", "https://evil.example");
        HttpResponse<String> own = http.send("POST", "/probe-tool", "{}", "Origin", "https://klave.example.com");

        assertThat(foreign.statusCode()).isEqualTo(403);
        assertThat(foreign.body()).isEqualTo("{\"error\":\"petición de otro origen rechazada\"}");
        assertThat(own.statusCode()).as("own origin reaches authentication").isEqualTo(401);
    }

    @Test
    void aLargeBodyRouteTakesAMebibyteAndRefusesMore() {
        String fits = "{\"p\":\"" + "x".repeat(RoutePolicy.LARGE_BODY_LIMIT - 10) + "\"}";
        String over = "x".repeat(RoutePolicy.LARGE_BODY_LIMIT + 1);

        assertThat(http.send("POST", "/probe-tool", fits).statusCode()).as("read, then 401").isEqualTo(401);
        assertThat(http.send("POST", "/probe-tool", over).statusCode()).isEqualTo(413);
    }

    @Test
    void aFormRouteDecodesTheBodyAndRefusesOtherContentTypes() {
        HttpResponse<String> form = http.send("POST", "/probe-oauth/token", "grant_type=authorization_code&scope=a+b"
                + "&scope=c%20d", "Content-Type", "application/x-www-form-urlencoded");
        HttpResponse<String> json = http.send("POST", "/probe-oauth/token", "{\"grant_type\":\"x\"}",
                "Content-Type", "application/json");

        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body()).isEqualTo("{\"grant_type\":\"authorization_code\",\"scope\":[\"a b\",\"c d\"]}");
        assertThat(json.statusCode()).isEqualTo(415);
        assertThat(json.body()).isEqualTo("{\"error\":\"el cuerpo debe ser application/x-www-form-urlencoded\"}");
    }

    @Test
    void crossOriginReadsCarryAllowOriginAndPreflightsAreAnswered() {
        HttpResponse<String> answer = http.send("POST", "/probe-oauth/token", "grant_type=x",
                "Content-Type", "application/x-www-form-urlencoded", "Origin", "https://agent.example");
        HttpResponse<String> preflight = http.send("OPTIONS", "/probe-oauth/token", null,
                "Origin", "https://agent.example", "Access-Control-Request-Method", "POST");

        assertThat(answer.statusCode()).as("no origin check on this route").isEqualTo(200);
        assertThat(answer.headers().firstValue("Access-Control-Allow-Origin")).contains("*");
        assertThat(preflight.statusCode()).isEqualTo(204);
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods")).contains("POST");
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers").orElse(""))
                .contains("Authorization").contains("Content-Type");
        assertThat(http.send("OPTIONS", "/probe-tool", null).statusCode()).as("no CORS there: 405").isEqualTo(405);
        assertThat(http.send("POST", "/probe-tool", "{}").headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void aPlainTextRouteWritesItsRefusalsAsText() {
        HttpResponse<String> response = http.get("/probe-oauth/authorize");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).contains("text/plain; charset=utf-8");
        assertThat(response.body()).isEqualTo("no encontrado");
    }

    @Test
    void anAnswerMaySetTwoCookiesAndRedirect() {
        HttpResponse<String> response = http.get("/probe-oauth/two-cookies");

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(response.headers().firstValue("Location")).contains("/somewhere?x=1");
        assertThat(response.headers().allValues("Set-Cookie")).isEqualTo(List.of("a=1; Path=/", "b=2; Path=/"));
        assertThat(response.body()).isEmpty();
    }

    @Test
    void anUnknownPathUnderAMountIs404InTheMountsFormat() {
        HttpResponse<String> response = http.get("/probe-oauth/nothing-here");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).isEqualTo("{\"error\":\"no encontrado\"}");
    }
}
