package dev.klave.recording;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One output stream decoded as UTF-8 across messages: a character whose bytes are split between
 * two messages is kept and completed by the next; bytes that are no UTF-8 become U+FFFD.
 */
final class Utf8Stream {
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    private byte[] carried = new byte[0];

    /** The text of {@code bytes[from..]}, after what the last call kept. */
    String decode(byte[] bytes, int from) {
        byte[] all = new byte[carried.length + bytes.length - from];
        System.arraycopy(carried, 0, all, 0, carried.length);
        System.arraycopy(bytes, from, all, carried.length, bytes.length - from);
        ByteBuffer in = ByteBuffer.wrap(all);
        CharBuffer out = CharBuffer.allocate(all.length + 1);
        decoder.decode(in, out, false);
        // At most three bytes of a character can wait; more would be malformed, already replaced.
        carried = in.hasRemaining() ? Arrays.copyOfRange(all, in.position(), all.length) : new byte[0];
        out.flip();
        return out.toString();
    }
}
