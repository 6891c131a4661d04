package dev.klave.recording;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The lines a session printed, for search (issue 42): built on the writer's thread from the chunks
 * it stores, never on the relay's. Output events are joined per recording (a line may come in
 * pieces), terminal escape sequences and control characters dropped, each line kept with the
 * moment its first piece appeared — where the player jumps to.
 */
final class LineIndex {
    /** A stored line is at most this long: the rest is not searched. */
    static final int MAX_LINE = 500;
    /** CSI and OSC sequences (ECMA-48 §5.4, xterm's OSC), and the other C0/C1 controls but tab. */
    private static final Pattern ESCAPES = Pattern.compile(
            "\\u001B\\[[0-?]*[ -/]*[@-~]|\\u001B\\][^\\u0007\\u001B]*(\\u0007|\\u001B\\\\)|\\u001B[@-Z\\\\-_]"
                    + "|[\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F]");

    /** One line and when it began, in seconds from the session's start. */
    record Line(double at, String text) {}

    private final Map<String, StringBuilder> partial = new HashMap<>();
    private final Map<String, Double> startedAt = new HashMap<>();

    /** The lines completed by {@code chunk} (asciicast events, one per line). */
    List<Line> feed(String id, String chunk) {
        List<Line> lines = new ArrayList<>();
        for (String event : chunk.split("\n")) {
            if (event.isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = Cast.JSON.readTree(event);
            } catch (IOException unreadable) {
                continue;
            }
            if (!"o".equals(node.path(1).asText())) {
                continue;
            }
            double at = node.path(0).asDouble();
            String text = node.path(2).asText().replace("\r\n", "\n").replace('\r', '\n');
            StringBuilder held = partial.computeIfAbsent(id, ignored -> new StringBuilder());
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (held.isEmpty() && c != '\n') {
                    startedAt.put(id, at);
                }
                if (c == '\n') {
                    add(lines, id, held);
                } else if (held.length() < MAX_LINE * 4) {
                    held.append(c);
                }
            }
        }
        return lines;
    }

    /** The last line, unfinished when the session ended. */
    List<Line> end(String id) {
        List<Line> lines = new ArrayList<>();
        StringBuilder held = partial.remove(id);
        if (held != null) {
            add(lines, id, held);
        }
        startedAt.remove(id);
        return lines;
    }

    private void add(List<Line> lines, String id, StringBuilder held) {
        String clean = ESCAPES.matcher(held).replaceAll("").strip();
        if (!clean.isEmpty()) {
            lines.add(new Line(startedAt.getOrDefault(id, 0.0),
                    clean.length() > MAX_LINE ? clean.substring(0, MAX_LINE) : clean));
        }
        held.setLength(0);
    }
}
