package dev.klave.login.forge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.SubjectId;
import dev.klave.audit.ControlEvent;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingForge;
import dev.klave.testing.TestingKlave;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** {@code POST /v1/forge/webhook} (spec 1 §4 "CI and forge", §7 "Webhook errors"), delivered as the forge delivers. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForgeWebhookTest {
    private static final AtomicInteger LOGINS = new AtomicInteger();

    private final TestingClock clock = new TestingClock(Instant.parse("2026-11-27T09:00:00Z"));
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private TestingForge forge;
    private TestingKlave klave;

    @BeforeAll
    void start() {
        forge = TestingForge.start(clock);
        klave = TestingKlave.startWithForge(clock, forge, settings -> settings);
    }

    @AfterAll
    void stop() {
        klave.close();
        forge.close();
    }

    private HttpResponse<String> deliver(String event, byte[] body, String signature, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + klave.port()
                        + "/v1/forge/webhook"))
                .timeout(Duration.ofSeconds(20))
                .header("X-GitHub-Event", event)
                .header("X-GitHub-Delivery", "d-" + LOGINS.incrementAndGet())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (signature != null) {
            request.header("X-Hub-Signature-256", signature);
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> deliver(String event, byte[] body) {
        return deliver(event, body, TestingForge.sign(body, TestingForge.WEBHOOK_SECRET), "application/json");
    }

    private Linked member(String prefix, boolean admin) {
        TestingForge.Linked linked = forge.linkedPerson(klave, prefix + "-" + LOGINS.incrementAndGet(), admin, true);
        return new Linked(linked.subject().id(), linked.forgeId());
    }

    private record Linked(SubjectId subject, long forgeId) {}

    private boolean enabled(SubjectId id) {
        return klave.accounts().get(id).enabled();
    }

    @Test
    void memberRemovedDisablesTheLinkedAccountAtOnceViaForgeWebhook() {
        member("admin", true);
        Linked ana = member("ana", false);

        HttpResponse<String> response = deliver("organization", forge.memberRemoved(ana.forgeId()));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(enabled(ana.subject())).isFalse();
        ControlEvent disable = klave.events().page(1).events().stream()
                .filter(event -> event.type().equals("user.disable")).findFirst().orElseThrow();
        assertThat(disable.via()).contains("forge-webhook");
        assertThat(disable.target().map(ControlEvent.SubjectRef::id)).contains(ana.subject().value());

        assertThat(deliver("organization", forge.memberRemoved(ana.forgeId())).statusCode())
                .as("a repeated delivery").isEqualTo(200);
    }

    @Test
    void aBadSignatureIs401AndDisablesNobody() {
        Linked ana = member("signed", false);
        byte[] body = forge.memberRemoved(ana.forgeId());

        HttpResponse<String> wrong = deliver("organization", body, TestingForge.sign(body, "not-the-secret"),
                "application/json");
        HttpResponse<String> missing = deliver("organization", body, null, "application/json");
        byte[] tampered = new String(body, StandardCharsets.UTF_8).replace("member_removed", "member_added ")
                .getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> other = deliver("organization", tampered, TestingForge.sign(body,
                TestingForge.WEBHOOK_SECRET), "application/json");

        for (HttpResponse<String> response : java.util.List.of(wrong, missing, other)) {
            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.body()).isEqualTo("{\"error\":\"firma no válida\"}");
        }
        assertThat(enabled(ana.subject())).isTrue();
    }

    @Test
    void anotherContentTypeIs415() {
        Linked ana = member("form", false);
        byte[] body = forge.memberRemoved(ana.forgeId());

        HttpResponse<String> response = deliver("organization", body, TestingForge.sign(body,
                TestingForge.WEBHOOK_SECRET), "application/x-www-form-urlencoded");

        assertThat(response.statusCode()).isEqualTo(415);
        assertThat(enabled(ana.subject())).isTrue();
    }

    @Test
    void aBodyThatIsNotJsonIs400() {
        byte[] body = "payload=%7B%7D".getBytes(StandardCharsets.UTF_8);

        HttpResponse<String> response = deliver("organization", body);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).isEqualTo("{\"error\":\"cuerpo JSON no válido\"}");
    }

    @Test
    void aBodyOverOneMebibyteIs413() {
        byte[] body = new byte[1024 * 1024 + 1];
        java.util.Arrays.fill(body, (byte) ' ');

        HttpResponse<String> response = deliver("organization", body);

        assertThat(response.statusCode()).isEqualTo(413);
    }

    @Test
    void aBodyOfJustUnderOneMebibyteIsRead() {
        StringBuilder padding = new StringBuilder();
        while (padding.length() < 1024 * 1024 - 200) {
            padding.append("x");
        }
        byte[] body = ("{\"action\":\"created\",\"padding\":\"" + padding + "\"}").getBytes(StandardCharsets.UTF_8);

        assertThat(deliver("star", body).statusCode()).isEqualTo(200);
    }

    @Test
    void theLastAdministratorIsNotDisabledButTheDeliveryIsAccepted() {
        TestingKlave shared = klave;
        try (TestingKlave alone = TestingKlave.startWithForge(clock, forge, settings -> settings)) {
            klave = alone;
            Linked admin = member("last-admin", true);
            Linked someone = member("someone", false);

            HttpResponse<String> response = deliver("organization", forge.memberRemoved(admin.forgeId()));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(enabled(admin.subject())).as("the only administrator able to sign in").isTrue();
            assertThat(alone.events().page(1).events())
                    .noneMatch(event -> event.type().equals("user.disable"));
            assertThat(enabled(someone.subject())).isTrue();
        } finally {
            klave = shared;
        }
    }

    @Test
    void installationDeletedAndOtherEventsAreAcceptedAndChangeNothing() {
        Linked ana = member("calm", false);
        byte[] deleted = "{\"action\":\"deleted\",\"installation\":{\"id\":77,\"account\":{\"login\":\"acme\"}}}"
                .getBytes(StandardCharsets.UTF_8);
        byte[] other = "{\"action\":\"member_added\",\"organization\":{\"login\":\"acme\"}}".getBytes(StandardCharsets.UTF_8);

        assertThat(deliver("installation", deleted).statusCode()).isEqualTo(200);
        assertThat(deliver("organization", other).statusCode()).isEqualTo(200);
        assertThat(deliver("ping", "{\"zen\":\"hi\"}".getBytes(StandardCharsets.UTF_8)).statusCode()).isEqualTo(200);
        assertThat(enabled(ana.subject())).isTrue();
    }

    @Test
    void aMemberRemovedWithoutAnEventHeaderOrOrganisationIsReadByItsShape() {
        member("admin", true);
        Linked ana = member("shape", false);
        byte[] body = ("{\"action\":\"member_removed\",\"membership\":{\"state\":\"active\",\"user\":{\"id\":"
                + ana.forgeId() + ",\"login\":\"shape-gh\"}}}").getBytes(StandardCharsets.UTF_8);

        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + klave.port()
                            + "/v1/forge/webhook"))
                    .header("Content-Type", "application/json")
                    .header("X-Hub-Signature-256", TestingForge.sign(body, TestingForge.WEBHOOK_SECRET))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(enabled(ana.subject())).isFalse();
    }

    @Test
    void aMemberRemovedThatNamesNobodyIsAcceptedAndChangesNothing() {
        Linked ana = member("nobody", false);
        byte[] body = "{\"action\":\"member_removed\",\"organization\":{\"login\":\"acme\"},\"membership\":{}}"
                .getBytes(StandardCharsets.UTF_8);

        assertThat(deliver("organization", body).statusCode()).isEqualTo(200);
        assertThat(enabled(ana.subject())).isTrue();
    }

    @Test
    void memberRemovedFromAnotherOrganisationIsIgnored() {
        member("admin", true);
        Linked ana = member("elsewhere", false);
        byte[] body = new String(forge.memberRemoved(ana.forgeId()), StandardCharsets.UTF_8)
                .replace("\"login\":\"acme\"", "\"login\":\"other-org\"").getBytes(StandardCharsets.UTF_8);

        assertThat(deliver("organization", body).statusCode()).isEqualTo(200);
        assertThat(enabled(ana.subject())).isTrue();
    }

    @Test
    void onlyPostIsAllowed() {
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + klave.port()
                    + "/v1/forge/webhook")).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).contains("POST");
    }
}
