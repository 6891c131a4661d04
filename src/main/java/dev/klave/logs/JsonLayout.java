package dev.klave.logs;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import dev.klave.messages.Untrusted;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.slf4j.event.KeyValuePair;

/**
 * {@code KLAVE_LOG_FORMAT=json}: one JSON object per line — {@code time} (RFC 3339, UTC, ms),
 * {@code level}, {@code logger}, {@code thread}, {@code message}, {@code audit_id} when the line is
 * about one request ({@link LogFields#AUDIT_ID}), and {@code error} with the stack trace when there
 * is one. The message and the trace are escaped exactly as in the text format
 * ({@link Untrusted#controls}, {@link EscapedThrowable}) before JSON's own escaping, so a value from
 * outside reads the same in both formats, and no raw control character reaches either.
 */
public final class JsonLayout extends LayoutBase<ILoggingEvent> {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")
            .withZone(ZoneOffset.UTC);

    private final EscapedThrowable throwable = new EscapedThrowable();

    @Override
    public void start() {
        throwable.setContext(getContext());
        throwable.start();
        super.start();
    }

    @Override
    public String doLayout(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(256);
        line.append('{');
        field(line, "time", TIME.format(Instant.ofEpochMilli(event.getTimeStamp())));
        line.append(',');
        field(line, "level", event.getLevel().toString());
        line.append(',');
        field(line, "logger", event.getLoggerName());
        line.append(',');
        field(line, "thread", event.getThreadName());
        line.append(',');
        field(line, "message", Untrusted.controls(event.getFormattedMessage()));
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        if (pairs != null) {
            for (KeyValuePair pair : pairs) {
                if (LogFields.AUDIT_ID.equals(pair.key) && pair.value != null) {
                    line.append(',');
                    field(line, LogFields.AUDIT_ID, Untrusted.controls(String.valueOf(pair.value)));
                }
            }
        }
        if (event.getThrowableProxy() != null) {
            line.append(',');
            field(line, "error", throwable.convert(event).stripTrailing());
        }
        return line.append('}').append(CoreConstants.LINE_SEPARATOR).toString();
    }

    private static void field(StringBuilder line, String name, String value) {
        string(line, name);
        line.append(':');
        string(line, value == null ? "" : value);
    }

    /** A JSON string (RFC 8259 §7): quotes, backslashes and every control character escaped. */
    static void string(StringBuilder line, String value) {
        line.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> line.append("\\\"");
                case '\\' -> line.append("\\\\");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                        line.append(String.format("\\u%04x", (int) c));
                    } else {
                        line.append(c);
                    }
                }
            }
        }
        line.append('"');
    }
}
