package dev.klave.notify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.crypto.Hmac;
import dev.klave.messages.Text;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a queued notification becomes on the wire: a Slack-compatible incoming-webhook message, a
 * JSON event and its signature, an e-mail's subject and text. Outside text (a reason, a login) is
 * escaped for where it goes, never interpreted.
 */
final class Formats {
    /** Slack's section text limit is 3,000 characters; ours are far shorter, but cut to be sure. */
    private static final int SLACK_TEXT = 2900;

    private Formats() {}

    /** The stored payload, read back. */
    static JsonNode read(String payload) {
        try {
            return Notifier.JSON.readTree(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored notification is JSON", e);
        }
    }

    /**
     * A Slack incoming-webhook body: {@code text} (the fallback notifications show), a section with
     * the title, a context with the lines, and a button that opens Klave — no deciding from Slack.
     */
    static byte[] slack(JsonNode payload) {
        ObjectNode body = Notifier.JSON.createObjectNode();
        String title = payload.path("title").asText();
        String link = payload.path("link").asText();
        body.put("text", cut(escape(title)));
        ArrayNode blocks = body.putArray("blocks");
        ObjectNode section = blocks.addObject().put("type", "section");
        section.putObject("text").put("type", "mrkdwn").put("text", cut("*" + escape(title) + "*"));
        List<String> lines = new ArrayList<>();
        payload.path("lines").forEach(line -> lines.add(escape(line.asText())));
        if (!lines.isEmpty()) {
            ObjectNode context = blocks.addObject().put("type", "context");
            context.putArray("elements").addObject().put("type", "mrkdwn").put("text", cut(String.join("\n", lines)));
        }
        ObjectNode actions = blocks.addObject().put("type", "actions");
        ObjectNode button = actions.putArray("elements").addObject().put("type", "button").put("url", link);
        button.putObject("text").put("type", "plain_text").put("text", Text.NOTIFY_OPEN.text());
        return bytes(body);
    }

    /** The generic JSON event: the stored payload as it is. */
    static byte[] json(String payload) {
        return payload.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * {@code Klave-Signature}: {@code t=<unix seconds>,v2=<hex HMAC-SHA256 of "<t>.<delivery>.<body>">}.
     * The time is signed, so a receiver can refuse an old one replayed; the delivery id
     * ({@code Klave-Delivery}, what a receiver deduplicates on) is signed, so nobody can make one
     * delivery look like another; the body is signed whole. The delivery id ({@code n_} and
     * base64url) has no dot, so the three parts cannot be shifted into one another. {@code v2}:
     * the first form ({@code v1}) signed the time and the body only.
     */
    static String signature(Hmac key, Instant at, String deliveryId, byte[] body) {
        if (deliveryId.indexOf('.') >= 0) {
            throw new IllegalArgumentException("a delivery id has no dot");
        }
        long seconds = at.getEpochSecond();
        return "t=" + seconds + ",v2=" + key.signHex(seconds + "." + deliveryId + "."
                + new String(body, StandardCharsets.UTF_8));
    }

    static String mailSubject(JsonNode payload) {
        return "Klave: " + oneLine(payload.path("title").asText());
    }

    static String mailText(JsonNode payload) {
        StringBuilder text = new StringBuilder(payload.path("title").asText()).append("\n\n");
        payload.path("lines").forEach(line -> text.append(line.asText()).append('\n'));
        return text.append('\n').append(Text.NOTIFY_MAIL_OPEN.text(payload.path("link").asText())).append("\n\n")
                .append(Text.NOTIFY_MAIL_FOOTER.text()).append('\n').toString();
    }

    /** Slack's mrkdwn control characters (its documentation asks to escape exactly these). */
    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String oneLine(String text) {
        return text.replaceAll("[\\r\\n\\t]+", " ").strip();
    }

    private static String cut(String text) {
        return text.length() <= SLACK_TEXT ? text : text.substring(0, SLACK_TEXT) + "…";
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return Notifier.JSON.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a Slack message is plain JSON", e);
        }
    }
}
