package dev.klave.logs;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Layout;
import ch.qos.logback.core.LayoutBase;

/**
 * The layout {@code KLAVE_LOG_FORMAT} picks: {@code json} ({@link JsonLayout}), or the text
 * pattern for anything else. One appender holds it, so a value the settings check will refuse
 * still leaves the log readable until Klave exits saying why.
 */
public final class FormatLayout extends LayoutBase<ILoggingEvent> {
    private String format = "text";
    private String pattern = "%d %-5level [%thread] %logger - %escapedMessage%n%escapedThrowable";
    private Layout<ILoggingEvent> chosen;

    public void setFormat(String format) {
        this.format = format;
    }

    public void setPattern(String pattern) {
        this.pattern = pattern;
    }

    @Override
    public void start() {
        if ("json".equals(format)) {
            JsonLayout json = new JsonLayout();
            json.setContext(getContext());
            json.start();
            chosen = json;
        } else {
            PatternLayout text = new PatternLayout();
            text.setContext(getContext());
            text.setPattern(pattern);
            text.start();
            chosen = text;
        }
        super.start();
    }

    @Override
    public String doLayout(ILoggingEvent event) {
        return chosen.doLayout(event);
    }
}
