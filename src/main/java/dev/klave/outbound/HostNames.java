package dev.klave.outbound;

import java.util.regex.Pattern;

/**
 * Host names that different parsers read as different addresses. A host whose last label is a
 * number is an IPv4 address to a browser (WHATWG URL "ends in a number") and to C's
 * {@code inet_aton}, which read {@code 0177.0.0.1} as octal 127.0.0.1, {@code 0x7f.1} as hex and
 * {@code 2130706433} as one 32-bit number — while Java reads the first as 177.0.0.1. An address is
 * accepted only in the one form every parser reads alike: four decimal parts, no leading zero.
 */
public final class HostNames {
    private static final Pattern NUMBER = Pattern.compile("[0-9]+|0[xX][0-9a-fA-F]*");
    private static final Pattern PART = Pattern.compile("0|[1-9][0-9]{0,2}");

    private HostNames() {}

    /** Whether {@code host} reads as an IPv4 address in any form but plain dotted decimal. */
    public static boolean ambiguousIpv4(String host) {
        String[] labels = host.split("\\.", -1);
        String last = labels[labels.length - 1].isEmpty() && labels.length > 1 ? labels[labels.length - 2]
                : labels[labels.length - 1];
        if (!NUMBER.matcher(last).matches()) {
            return false;
        }
        if (labels.length != 4) {
            return true;
        }
        for (String label : labels) {
            if (!PART.matcher(label).matches() || Integer.parseInt(label) > 255) {
                return true;
            }
        }
        return false;
    }
}
