package dev.klave.logs;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import dev.klave.messages.Untrusted;

/**
 * {@code %escapedThrowable}: the stack trace as Logback prints it, each exception's message with
 * its control characters escaped (a message may carry a value from outside: a claim, a path, a
 * database's echo of a row), so the only line breaks are those between frames.
 */
public final class EscapedThrowable extends ThrowableProxyConverter {
    @Override
    protected String throwableProxyToString(IThrowableProxy proxy) {
        return super.throwableProxyToString(new Escaped(proxy));
    }

    /** The same exception, seen with an escaped message; causes and suppressed ones alike. */
    private record Escaped(IThrowableProxy proxy) implements IThrowableProxy {
        @Override
        public String getMessage() {
            return proxy.getMessage() == null ? null : Untrusted.controls(proxy.getMessage());
        }

        @Override
        public String getOverridingMessage() {
            return proxy.getOverridingMessage() == null ? null : Untrusted.controls(proxy.getOverridingMessage());
        }

        @Override
        public String getClassName() {
            return proxy.getClassName();
        }

        @Override
        public StackTraceElementProxy[] getStackTraceElementProxyArray() {
            return proxy.getStackTraceElementProxyArray();
        }

        @Override
        public int getCommonFrames() {
            return proxy.getCommonFrames();
        }

        @Override
        public IThrowableProxy getCause() {
            return proxy.getCause() == null ? null : new Escaped(proxy.getCause());
        }

        @Override
        public IThrowableProxy[] getSuppressed() {
            IThrowableProxy[] suppressed = proxy.getSuppressed();
            if (suppressed == null) {
                return null;
            }
            IThrowableProxy[] escaped = new IThrowableProxy[suppressed.length];
            for (int i = 0; i < suppressed.length; i++) {
                escaped[i] = new Escaped(suppressed[i]);
            }
            return escaped;
        }

        @Override
        public boolean isCyclic() {
            return proxy.isCyclic();
        }
    }
}
