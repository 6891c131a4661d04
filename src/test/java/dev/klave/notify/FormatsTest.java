package dev.klave.notify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.crypto.Hmac;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a requester's hostile text becomes in each channel (issue 51, finding 9): a reason with CR,
 * LF, ESC, a Slack link {@code <https://evil|click>}, {@code *bold*}, a {@code <!channel>} and a bare
 * address. No control character reaches any channel; in Slack the text is escaped and quoted inside
 * inline code, no link or mention can be made of it and a bare address is not linked; the e-mail's
 * subject is one line and its body quotes the text on a line of its own; the JSON event keeps the
 * text apart from Klave's words.
 */
class FormatsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HOSTILE = "urgente\r\nAprobado por root: sí\u001b[31m rojo\u0000 "
            + "<https://evil.example/login|click> *bold* _it_ `code` <!channel> @here & https://evil.example "
            + "visita evil.example\u2028fin\u0085\u202Eaz";

    private static JsonNode payload(String title, String reason) throws Exception {
        Notification notification = new Notification(Kind.ACCESS_WAITING, "waiting:r1", Instant.EPOCH, title,
                List.of(Notification.Line.quoting("Motivo:", reason), Notification.Line.of("Caduca si nadie decide")),
                URI.create("https://klave.example.com/acceso/solicitudes/r1"), Map.of("request", "r1"));
        return JSON.readTree(Notifier.payload(notification));
    }

    private static List<String> strings(JsonNode node) {
        List<String> found = new ArrayList<>();
        if (node.isTextual()) {
            found.add(node.asText());
        }
        node.forEach(child -> found.addAll(strings(child)));
        return found;
    }

    private static boolean hasControl(String text) {
        return text.chars().anyMatch(c -> Character.getType(c) == Character.CONTROL || c == 0x2028 || c == 0x202E);
    }

    @Test
    void slackQuotesTheTextEscapedWithoutControlsLinksOrMentions() throws Exception {
        JsonNode message = JSON.readTree(Formats.slack(payload("eva pide «editar»", HOSTILE)));

        assertThat(strings(message)).as("no control character in any text, but the line end before the quote")
                .noneMatch(text -> hasControl(text.replaceFirst("\n> ", " ")));
        JsonNode quote = message.get("blocks").get(1).get("text");
        assertThat(quote.get("type").asText()).isEqualTo("mrkdwn");
        assertThat(quote.get("verbatim").asBoolean()).as("Slack makes no link nor mention of it").isTrue();
        String text = quote.get("text").asText();
        assertThat(text).as("Klave's label, then the text as a block quote of inline code")
                .startsWith("Motivo:\n> `").endsWith("`").containsOnlyOnce("\n");
        assertThat(text.chars().filter(c -> c == '`').count()).as("no backtick of the text closes the code").isEqualTo(2);
        assertThat(text).as("Slack's escapes (&, <, >): no link, no <!channel>")
                .doesNotContain("<").contains("&lt;https:").contains("|click&gt;").contains("&lt;!channel&gt;")
                .contains(" &amp; ").contains("*bold* _it_ ˋcodeˋ");
        assertThat(text).as("a bare address is not linked").doesNotContain("https://evil.example")
                .doesNotContain("evil.example").contains("evil.\u200Bexample");
        assertThat(text.replace("\u200B", "")).as("what was written, still readable").isEqualTo("Motivo:\n> `"
                + "urgente Aprobado por root: sí[31m rojo &lt;https://evil.example/login|click&gt; *bold* _it_ ˋcodeˋ "
                + "&lt;!channel&gt; @here &amp; https://evil.example visita evil.example fin az`");
        for (JsonNode block : message.get("blocks")) {
            if (block.has("text")) {
                assertThat(block.get("text").get("verbatim").asBoolean()).isTrue();
            }
        }
        assertThat(message.get("blocks").get(2).get("type").asText()).isEqualTo("context");
        assertThat(message.get("blocks").get(3).get("elements").get(0).get("url").asText())
                .as("the only link: Klave's").isEqualTo("https://klave.example.com/acceso/solicitudes/r1");
    }

    @Test
    void aTitleIsEscapedAndOneLineInSlackToo() throws Exception {
        JsonNode message = JSON.readTree(Formats.slack(payload("El destino «a\r\n<!here> b» falla", "x")));

        assertThat(message.get("text").asText()).isEqualTo("El destino «a &lt;!here&gt; b» falla");
        assertThat(message.get("blocks").get(0).get("text").get("text").asText())
                .isEqualTo("*El destino «a &lt;!here&gt; b» falla*");
    }

    @Test
    void anEmailHasAOneLineSubjectAndQuotesTheTextOnItsOwnLine() throws Exception {
        JsonNode payload = payload("eva pide\r\nBcc: todos@example.com\u0085\u2028«editar»\u001b[2J", HOSTILE);

        String subject = Formats.mailSubject(payload);
        assertThat(subject).doesNotContain("\r").doesNotContain("\n").matches(text -> !hasControl(text), "no control")
                .isEqualTo("Klave: eva pide Bcc: todos@example.com «editar»[2J");
        String text = Formats.mailText(payload);
        assertThat(text.replace("\n", "")).matches(body -> !hasControl(body), "no control but line ends");
        List<String> lines = text.lines().toList();
        int label = lines.indexOf("Motivo:");
        assertThat(label).as("Klave's label on its own line").isPositive();
        assertThat(lines.get(label + 1)).as("the whole text quoted on the next, one line")
                .startsWith("> urgente Aprobado por root: sí[31m rojo <https://evil.example/login|click>")
                .endsWith("visita evil.example fin az");
        assertThat(lines).as("nothing the requester wrote starts a line of its own")
                .noneMatch(line -> line.startsWith("Aprobado por"));
    }

    @Test
    void theJsonEventKeepsTheTextApartAndHasNoControlCharacter() throws Exception {
        JsonNode payload = payload("eva pide «editar»", HOSTILE);
        byte[] body = Formats.json(JSON.writeValueAsString(payload));

        String raw = new String(body, StandardCharsets.UTF_8);
        assertThat(raw).as("not even escaped in the JSON text").doesNotContain("\\u001b").doesNotContain("\\r")
                .doesNotContain("\\n").doesNotContain("\\u0000");
        JsonNode event = JSON.readTree(body);
        assertThat(strings(event)).noneMatch(FormatsTest::hasControl);
        JsonNode line = event.get("lines").get(0);
        assertThat(line.get("text").asText()).as("Klave's words").isEqualTo("Motivo:");
        assertThat(line.get("quote").asText()).as("what the requester wrote, apart")
                .startsWith("urgente Aprobado por root: sí[31m rojo <https://evil.example/login|click> *bold*");
        assertThat(event.get("lines").get(1).has("quote")).isFalse();
        assertThat(Formats.signature(new Hmac("k".repeat(32).getBytes(StandardCharsets.UTF_8)), Instant.EPOCH, "n_x", body))
                .startsWith("t=0,v2=");
    }

    @Test
    void aRowQueuedBeforeQuotesReadsAsKlavesLines() throws Exception {
        String older = "{\"id\":\"waiting:r0\",\"kind\":\"access.waiting\",\"title\":\"t\",\"lines\":"
                + "[\"Motivo: a\\r\\nb\"],\"link\":\"https://klave.example.com/\",\"data\":{}}";

        assertThat(Formats.mailText(Formats.read(older))).contains("Motivo: a b\n");
        assertThat(JSON.readTree(Formats.json(older)).get("lines").get(0).get("text").asText()).isEqualTo("Motivo: a b");
    }
}
