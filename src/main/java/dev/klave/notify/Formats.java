package dev.klave.notify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.klave.crypto.Hmac;
import dev.klave.messages.Text;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a queued notification becomes on the wire: a Slack-compatible incoming-webhook message, a
 * JSON event and its signature, an e-mail's subject and text. Outside text (a reason, a login) is
 * made safe for where it goes, never interpreted (issue 51, finding 9):
 *
 * <ul>
 *   <li>in every channel, control characters are gone — a line break, tab, NEL or line separator
 *       becomes a space, anything else (ESC, NUL, bidirectional overrides) is removed — so no text
 *       starts a line, a header or a terminal sequence of its own;
 *   <li>what a person wrote ({@link Notification.Line#quote()}) is shown as a quote: in Slack a
 *       block quote holding inline code, in e-mail a {@code > } line, in JSON its own field;
 *   <li>in Slack every text is escaped as its documentation asks ({@code &}, {@code <}, {@code >}),
 *       so nobody writes a link, a mention or a {@code <!channel>}; texts are {@code verbatim} (no
 *       automatic links), and a quote's dots and colons carry a zero-width space, so a bare
 *       address is never made a live link by a client that links anyway;
 *   <li>an e-mail's subject is one line.
 * </ul>
 */
final class Formats {
    /** Slack's section text limit is 3,000 characters; ours are far shorter, but cut to be sure. */
    private static final int SLACK_TEXT = 2900;
    /**
     * The most of a quote shown (a reason or a comment is at most 500): cut before escaping, so
     * the escaped quote (at most five times longer) stays within {@link #SLACK_TEXT} whole.
     */
    private static final int QUOTE = 500;
    /** What breaks a line: one space for a run of them. */
    private static final Pattern BREAKS = Pattern.compile("[\\r\\n\\t\\u000B\\f\\u0085\\u2028\\u2029]+");
    /** Every other control character, and the invisible marks that reorder text: removed. */
    private static final Pattern CONTROLS = Pattern.compile(
            "[\\p{Cc}\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069\\uFEFF]");
    /** Breaks Slack's (and other clients') automatic links without changing what is read. */
    private static final String ZERO_WIDTH_SPACE = "\u200B";

    private Formats() {}

    /** The stored payload, read back. */
    static JsonNode read(String payload) {
        try {
            return Notifier.JSON.readTree(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored notification is JSON", e);
        }
    }

    /** The lines of a payload; a row queued before lines had quotes holds plain strings. */
    static List<Notification.Line> lines(JsonNode payload) {
        List<Notification.Line> lines = new ArrayList<>();
        for (JsonNode line : payload.path("lines")) {
            if (line.isTextual()) {
                lines.add(Notification.Line.of(line.asText()));
            } else {
                lines.add(new Notification.Line(line.path("text").asText(), line.hasNonNull("quote")
                        ? Optional.of(line.get("quote").asText()) : Optional.empty()));
            }
        }
        return lines;
    }

    /**
     * A Slack incoming-webhook body: {@code text} (the fallback notifications show), a section with
     * the title, a context for each of Klave's lines, a section with a block quote for each quoted
     * one, and a button that opens Klave — no deciding from Slack.
     */
    static byte[] slack(JsonNode payload) {
        ObjectNode body = Notifier.JSON.createObjectNode();
        String title = escape(clean(payload.path("title").asText()));
        String link = payload.path("link").asText();
        body.put("text", cut(title));
        ArrayNode blocks = body.putArray("blocks");
        mrkdwn(blocks.addObject().put("type", "section").putObject("text"), "*" + title + "*");
        for (Notification.Line line : lines(payload)) {
            String text = escape(clean(line.text()));
            if (line.quote().isPresent()) {
                mrkdwn(blocks.addObject().put("type", "section").putObject("text"),
                        text + "\n> `" + inert(line.quote().get()) + "`");
            } else {
                mrkdwn(blocks.addObject().put("type", "context").putArray("elements").addObject(), text);
            }
        }
        ObjectNode actions = blocks.addObject().put("type", "actions");
        ObjectNode button = actions.putArray("elements").addObject().put("type", "button").put("url", link);
        button.putObject("text").put("type", "plain_text").put("text", Text.NOTIFY_OPEN.text());
        return bytes(body);
    }

    /** A mrkdwn text object: {@code verbatim}, so Slack makes no link, mention or channel name of it. */
    private static void mrkdwn(ObjectNode object, String text) {
        object.put("type", "mrkdwn").put("text", cut(text)).put("verbatim", true);
    }

    /**
     * What a person wrote, for inside Slack's inline code in a block quote: one line, escaped, no
     * backtick to close the code early, and a zero-width space after each dot and colon, so no
     * client finds an address to link in it.
     */
    private static String inert(String quote) {
        String line = clean(quote);
        if (line.length() > QUOTE) {
            line = line.substring(0, QUOTE) + "…";
        }
        return escape(line).replace("`", "\u02CB").replace(".", "." + ZERO_WIDTH_SPACE)
                .replace(":", ":" + ZERO_WIDTH_SPACE);
    }

    /**
     * The generic JSON event: the stored payload with every string's control characters gone, each
     * line an object ({@code text}, and {@code quote} for what a person wrote).
     */
    static byte[] json(String payload) {
        JsonNode event = read(payload);
        if (event instanceof ObjectNode object && event.has("lines")) {
            List<Notification.Line> lines = lines(event);
            ArrayNode written = object.putArray("lines");
            for (Notification.Line line : lines) {
                ObjectNode one = written.addObject().put("text", line.text());
                line.quote().ifPresent(quote -> one.put("quote", quote));
            }
        }
        return bytes(cleaned(event));
    }

    /** {@code node} with {@link #clean} applied to every string in it. */
    private static JsonNode cleaned(JsonNode node) {
        if (node.isTextual()) {
            return TextNode.valueOf(clean(node.asText()));
        }
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> field : List.copyOf(object.properties())) {
                object.set(field.getKey(), cleaned(field.getValue()));
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, cleaned(array.get(i)));
            }
        }
        return node;
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

    /** One line, never a CR or LF: a header (RFC 5322 §2.2) a text cannot add to. */
    static String mailSubject(JsonNode payload) {
        return "Klave: " + clean(payload.path("title").asText()).strip();
    }

    /** Plain text: the title, Klave's lines, each quote on a {@code > } line of its own, the link. */
    static String mailText(JsonNode payload) {
        StringBuilder text = new StringBuilder(clean(payload.path("title").asText())).append("\n\n");
        for (Notification.Line line : lines(payload)) {
            text.append(clean(line.text())).append('\n');
            line.quote().ifPresent(quote -> text.append("> ").append(clean(quote)).append('\n'));
        }
        return text.append('\n').append(Text.NOTIFY_MAIL_OPEN.text(payload.path("link").asText())).append("\n\n")
                .append(Text.NOTIFY_MAIL_FOOTER.text()).append('\n').toString();
    }

    /** Slack's mrkdwn control characters (its documentation asks to escape exactly these). */
    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** Without control characters: a run of line breaks and tabs is one space, any other is removed. */
    static String clean(String text) {
        return CONTROLS.matcher(BREAKS.matcher(text).replaceAll(" ")).replaceAll("");
    }

    private static String cut(String text) {
        return text.length() <= SLACK_TEXT ? text : text.substring(0, SLACK_TEXT) + "…";
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return Notifier.JSON.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a notification is plain JSON", e);
        }
    }
}
