package dev.klave.recording;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The lines one session printed, for search (issue 42): built by its recorder from the output it
 * records, on a recorder thread, never the relay's. Output is joined across events (a line may come
 * in pieces), terminal escape sequences and control characters dropped, each line kept with the
 * moment its first piece appeared — where the player jumps to.
 *
 * <p>It reads the output as the recorder has it, not the asciicast the writer stores: read back
 * from the stored JSON, the index cost ten times the recording itself (36 against 390 MiB/s of
 * 80-column output on one core), and held the writer behind any stream printing at network speed.
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

    private final StringBuilder held = new StringBuilder();
    private boolean controls;
    private double startedAt;

    /** The lines completed by output {@code text} that appeared at {@code at}. */
    List<Line> feed(double at, String text) {
        List<Line> lines = List.of();
        int from = 0;
        // The next LF and CR, each searched again only once passed: one pass over the text.
        int feed = -1;
        int ret = -1;
        while (from <= text.length()) {
            if (feed != Integer.MAX_VALUE && feed < from) {
                feed = text.indexOf('\n', from);
                feed = feed < 0 ? Integer.MAX_VALUE : feed;
            }
            if (ret != Integer.MAX_VALUE && ret < from) {
                ret = text.indexOf('\r', from);
                ret = ret < 0 ? Integer.MAX_VALUE : ret;
            }
            int end = Math.min(text.length(), Math.min(feed, ret));
            if (end > from) {
                if (held.isEmpty()) {
                    startedAt = at;
                }
                // Pieces are copied whole, up to the most a line keeps; only what is kept is looked at.
                int kept = Math.min(MAX_LINE * 4 - held.length(), end - from);
                for (int i = from; i < from + kept && !controls; i++) {
                    char c = text.charAt(i);
                    controls = c < 0x20 && c != '\t' || c >= 0x7f && c <= 0x9f;
                }
                held.append(text, from, from + kept);
            }
            if (end == text.length()) {
                break;
            }
            // A CR ends the line as an LF does: "a\r\n" is one line, an empty one is dropped.
            if (!held.isEmpty()) {
                lines = lines.isEmpty() ? new ArrayList<>() : lines;
                add(lines);
            }
            from = end + 1;
        }
        return lines;
    }

    /** The last line, unfinished when the session ended. */
    List<Line> end() {
        List<Line> lines = new ArrayList<>();
        if (!held.isEmpty()) {
            add(lines);
        }
        return lines;
    }

    private void add(List<Line> lines) {
        // The expression only where a control character is: most lines have none.
        String clean = (controls ? ESCAPES.matcher(held).replaceAll("") : held.toString()).strip();
        if (!clean.isEmpty()) {
            lines.add(new Line(startedAt, clean.length() > MAX_LINE ? clean.substring(0, MAX_LINE) : clean));
        }
        held.setLength(0);
        controls = false;
        if (held.capacity() > 256) {
            // A session left at its prompt keeps a small buffer, not its longest line's.
            held.trimToSize();
        }
    }
}
