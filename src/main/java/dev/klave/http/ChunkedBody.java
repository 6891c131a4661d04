package dev.klave.http;

import io.netty.buffer.ByteBuf;

/**
 * Follows a chunked request body byte by byte ahead of Netty's decoder and refuses every chunk
 * line and trailer line outside RFC 9112 §7.1, which Netty reads leniently: a size with spaces
 * before it, text after it that is no extension ({@code 5 junk}, {@code 5\0}), or so many digits
 * that its int overflows ({@code 100000005} read as 5). A front end that reads such a line
 * differently frames the rest of the connection differently, and the bytes after it become
 * somebody's next request (RFC 9112 §11.2).
 *
 * <pre>
 *   chunk      = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
 *   chunk-size = 1*HEXDIG
 *   chunk-ext  = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
 *   last-chunk = 1*("0") [ chunk-ext ] CRLF
 *   trailer-section = *( field-line CRLF ) CRLF
 * </pre>
 *
 * Not thread-safe: one per connection, used on its event loop.
 */
final class ChunkedBody {
    /** Far above any body Klave forwards in one chunk; a larger size is refused rather than trusted. */
    static final long MAX_CHUNK_SIZE = Integer.MAX_VALUE;
    /** Netty's own limit for a chunk line (its initial-line limit), so Netty never refuses first. */
    static final int MAX_LINE = 4096;
    /** The whole trailer section. */
    static final int MAX_TRAILERS = 8192;

    private enum State { SIZE_LINE, DATA, DATA_CR, DATA_LF, TRAILER_LINE, DONE }

    /** A line or size that breaks the grammar; the message says which, for the log. */
    static final class MalformedChunk extends IllegalArgumentException {
        MalformedChunk(String message) {
            super(message);
        }
    }

    private State state = State.SIZE_LINE;
    private final StringBuilder line = new StringBuilder();
    private boolean lineEndsWithCr;
    private long remaining;
    private int trailerBytes;

    /** Whether the body's last chunk and trailer section have been read. */
    boolean done() {
        return state == State.DONE;
    }

    /**
     * Reads {@code buffer}'s bytes from {@code from} (inclusive) to {@code to} (exclusive), without
     * moving its indexes, until the body ends.
     *
     * @return how many bytes were read: fewer than offered once the body has ended
     * @throws MalformedChunk at the first byte that breaks the grammar
     */
    int scan(ByteBuf buffer, int from, int to) {
        int i = from;
        while (i < to && state != State.DONE) {
            switch (state) {
                case DATA -> {
                    int skip = (int) Math.min(remaining, to - i);
                    i += skip;
                    remaining -= skip;
                    if (remaining == 0) {
                        state = State.DATA_CR;
                    }
                }
                case DATA_CR -> {
                    expect(buffer.getByte(i++), '\r', "chunk data not followed by CRLF");
                    state = State.DATA_LF;
                }
                case DATA_LF -> {
                    expect(buffer.getByte(i++), '\n', "chunk data not followed by CRLF");
                    state = State.SIZE_LINE;
                }
                case SIZE_LINE, TRAILER_LINE -> {
                    byte b = buffer.getByte(i++);
                    if (b == '\n') {
                        endOfLine();
                    } else {
                        addToLine(b);
                    }
                }
                case DONE -> throw new IllegalStateException("unreachable");
            }
        }
        return i - from;
    }

    private static void expect(byte actual, char expected, String problem) {
        if (actual != expected) {
            throw new MalformedChunk(problem);
        }
    }

    private void addToLine(byte b) {
        if (lineEndsWithCr) {
            throw new MalformedChunk("CR inside a chunk line");
        }
        if (b == '\r') {
            lineEndsWithCr = true;
            return;
        }
        if (state == State.TRAILER_LINE && ++trailerBytes > MAX_TRAILERS) {
            throw new MalformedChunk("trailer section longer than " + MAX_TRAILERS + " bytes");
        }
        if (line.length() >= MAX_LINE) {
            throw new MalformedChunk("chunk line longer than " + MAX_LINE + " bytes");
        }
        line.append((char) (b & 0xff));
    }

    /** RFC 9112 §2.2: a bare LF is not taken as the end of a line here. */
    private void endOfLine() {
        if (!lineEndsWithCr) {
            throw new MalformedChunk("line ended by LF without CR");
        }
        String text = line.toString();
        line.setLength(0);
        lineEndsWithCr = false;
        if (state == State.SIZE_LINE) {
            remaining = sizeLine(text);
            state = remaining == 0 ? State.TRAILER_LINE : State.DATA;
            return;
        }
        if (text.isEmpty()) {
            state = State.DONE;
            return;
        }
        trailerLine(text);
    }

    /** The size a chunk line announces, once the line is known to follow the grammar. */
    static long sizeLine(String text) {
        int digits = 0;
        while (digits < text.length() && Character.digit(text.charAt(digits), 16) >= 0
                && text.charAt(digits) < 0x80) {
            digits++;
        }
        if (digits == 0) {
            throw new MalformedChunk("chunk size is not hexadecimal");
        }
        long size = 0;
        for (int i = 0; i < digits; i++) {
            size = size * 16 + Character.digit(text.charAt(i), 16);
            if (size > MAX_CHUNK_SIZE) {
                throw new MalformedChunk("chunk size over " + MAX_CHUNK_SIZE + " bytes");
            }
        }
        extensions(text, digits);
        return size;
    }

    /** {@code *( BWS ";" BWS name [ BWS "=" BWS ( token / quoted-string ) ] )} from {@code at}. */
    private static void extensions(String text, int at) {
        int i = at;
        while (i < text.length()) {
            i = whitespace(text, i);
            if (i >= text.length() || text.charAt(i) != ';') {
                throw new MalformedChunk("text after the chunk size that is no chunk extension");
            }
            i = whitespace(text, i + 1);
            int name = token(text, i);
            if (name == i) {
                throw new MalformedChunk("chunk extension without a name");
            }
            i = whitespace(text, name);
            if (i < text.length() && text.charAt(i) == '=') {
                i = whitespace(text, i + 1);
                i = i < text.length() && text.charAt(i) == '"' ? quoted(text, i) : nonEmptyToken(text, i);
            } else {
                i = name;
            }
        }
    }

    private static int whitespace(String text, int i) {
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    private static int nonEmptyToken(String text, int i) {
        int end = token(text, i);
        if (end == i) {
            throw new MalformedChunk("chunk extension without a value after '='");
        }
        return end;
    }

    /** RFC 9110 §5.6.2 tchar. */
    private static int token(String text, int i) {
        while (i < text.length() && isTokenChar(text.charAt(i))) {
            i++;
        }
        return i;
    }

    static boolean isTokenChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    /** RFC 9110 §5.6.4: {@code DQUOTE *( qdtext / quoted-pair ) DQUOTE}; the index after it. */
    private static int quoted(String text, int open) {
        for (int i = open + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\') {
                i++;
                if (i >= text.length() || !isFieldChar(text.charAt(i))) {
                    throw new MalformedChunk("bad escape in a chunk extension");
                }
            } else if (!isFieldChar(c)) {
                throw new MalformedChunk("control character in a chunk extension");
            }
        }
        throw new MalformedChunk("unterminated quoted chunk extension");
    }

    /** HTAB, SP, VCHAR and obs-text: what a field value may hold (RFC 9110 §5.5). */
    private static boolean isFieldChar(char c) {
        return c == '\t' || (c >= 0x20 && c != 0x7f);
    }

    /** {@code field-name ":" OWS field-value OWS}; a line starting with whitespace is an obs-fold. */
    private static void trailerLine(String text) {
        int colon = token(text, 0);
        if (colon == 0 || colon >= text.length() || text.charAt(colon) != ':') {
            throw new MalformedChunk("trailer line that is no field");
        }
        for (int i = colon + 1; i < text.length(); i++) {
            if (!isFieldChar(text.charAt(i))) {
                throw new MalformedChunk("control character in a trailer field");
            }
        }
    }
}
