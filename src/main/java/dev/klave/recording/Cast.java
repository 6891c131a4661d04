package dev.klave.recording;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * asciicast v2 (docs.asciinema.org "asciicast v2"): a header object on the first line, then one
 * event per line, {@code [seconds, code, data]} — {@code o} output, {@code i} input, {@code r}
 * resize ({@code "80x24"}), {@code m} a marker (the exit status). v2 rather than v3: every player
 * and {@code asciinema} itself read it, and nothing of v3 (relative times, exit events) is needed
 * to replay a session; Klave's own facts go in the header's {@code klave} object.
 */
final class Cast {
    static final ObjectMapper JSON = new ObjectMapper();

    private Cast() {}

    static String header(Recording recording) {
        ObjectNode header = JSON.createObjectNode();
        header.put("version", 2);
        Recording.Target target = recording.target();
        header.put("width", recording.terminal().size().width());
        header.put("height", recording.terminal().size().height());
        header.put("timestamp", recording.startedAt().getEpochSecond());
        header.put("title", target.pod() + " · " + target.cluster().value());
        ObjectNode klave = header.putObject("klave");
        klave.put("audit_id", recording.id());
        klave.put("subject", recording.owner().login());
        klave.put("cluster", target.cluster().value());
        klave.put("namespace", target.namespace());
        klave.put("pod", target.pod());
        klave.put("container", target.container().orElse(null));
        klave.put("command", target.command());
        klave.put("tty", recording.terminal().tty().allocated());
        klave.put("stdin_recorded", recording.stdin().recorded());
        return line(header);
    }

    static String event(double seconds, String code, String data) {
        ArrayNode event = JSON.createArrayNode();
        event.add(Double.parseDouble(String.format(Locale.ROOT, "%.6f", seconds)));
        event.add(code);
        event.add(data);
        return line(event);
    }

    private static String line(Object node) {
        try {
            return JSON.writeValueAsString(node) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("asciicast lines are plain JSON", e);
        }
    }
}
