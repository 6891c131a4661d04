package dev.klave.logs;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.klave.messages.Untrusted;

/** {@code %escapedMessage}: the formatted message, its control characters escaped. */
public final class EscapedMessage extends ClassicConverter {
    @Override
    public String convert(ILoggingEvent event) {
        return Untrusted.controls(event.getFormattedMessage());
    }
}
