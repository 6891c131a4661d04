package dev.klave.kube;

/** Percent-encoding of one byte (RFC 3986 §2.1: upper-case hex digits), and decoding of a pair. */
final class Percent {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private Percent() {}

    static void append(byte b, StringBuilder out) {
        out.append('%').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
    }

    /** The value of a hex digit, or -1. */
    static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
