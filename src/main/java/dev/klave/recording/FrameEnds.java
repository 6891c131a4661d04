package dev.klave.recording;

/**
 * Where WebSocket frames end in one direction of a relayed stream (RFC 6455 §5.2), read from the
 * frames' heads only — a few bytes each, the payloads skipped — on the relay's own thread. A session
 * that must stop before its client reads past a point (a required recording's cap, issue 51 §14) is
 * cut before the first frame that would end past it, so that the client is left on a whole message
 * and can still read the one that says why.
 */
final class FrameEnds {
    private final byte[] head = new byte[14];
    private int headRead;
    /** The stream's bytes read so far. */
    private long position;
    /** Where the frame whose head is being read, or whose payload comes, began. */
    private long frameStart;
    private long payloadLeft;
    private boolean inPayload;
    /** Whether what was let through ends on a frame's end. */
    private boolean passedToEnd = true;

    /** Whether the bytes read so far end on a frame's end. */
    boolean atEnd() {
        return headRead == 0 && !inPayload;
    }

    /** Whether the bytes let through so far end on a frame's end. */
    boolean passedToEnd() {
        return passedToEnd;
    }

    /**
     * Reads {@code bytes}, the stream's next, and says how many of them may go on so that no frame
     * let through ends past {@code budget} (a position in the whole stream): all of them, or up to
     * the start of the first frame that would. When that frame's head began in earlier bytes (a head
     * split between two reads), as many as end whole frames within the budget, and the client is
     * left inside a frame.
     */
    int within(byte[] bytes, long budget) {
        long start = position;
        long cut = -1;
        long lastEnd = atEnd() ? start : -1;
        int at = 0;
        while (at < bytes.length) {
            if (inPayload) {
                int taken = (int) Math.min(payloadLeft, bytes.length - at);
                at += taken;
                payloadLeft -= taken;
                if (payloadLeft == 0) {
                    inPayload = false;
                    lastEnd = start + at <= budget ? start + at : lastEnd;
                }
                continue;
            }
            if (headRead == 0) {
                frameStart = start + at;
            }
            head[headRead++] = bytes[at++];
            int length = headLength();
            if (length > 0 && headRead == length) {
                payloadLeft = payloadLength();
                headRead = 0;
                long end = frameStart + length + payloadLeft;
                if (cut < 0 && (end > budget || end < 0)) {
                    cut = frameStart;
                }
                if (payloadLeft == 0) {
                    lastEnd = start + at <= budget ? start + at : lastEnd;
                } else {
                    inPayload = true;
                }
            }
        }
        position += bytes.length;
        if (cut < 0 && position <= budget) {
            passedToEnd = atEnd();
            return bytes.length;
        }
        if (cut < start) {
            // The frame that crosses began before these bytes: let whole frames within the budget through.
            cut = lastEnd;
            if (cut < start) {
                return 0;
            }
        }
        passedToEnd = true;
        return (int) (cut - start);
    }

    /** The head's length once its second byte is read (2, plus 2 or 8 of length, plus 4 of mask); 0 before. */
    private int headLength() {
        if (headRead < 2) {
            return 0;
        }
        int length7 = head[1] & 0x7f;
        int extended = length7 == 126 ? 2 : length7 == 127 ? 8 : 0;
        return 2 + extended + ((head[1] & 0x80) != 0 ? 4 : 0);
    }

    private long payloadLength() {
        int length7 = head[1] & 0x7f;
        if (length7 < 126) {
            return length7;
        }
        int bytes = length7 == 126 ? 2 : 8;
        long length = 0;
        for (int i = 0; i < bytes; i++) {
            length = (length << 8) | (head[2 + i] & 0xff);
        }
        // A length past what a long holds never ends within a budget.
        return length < 0 ? Long.MAX_VALUE / 2 : length;
    }
}
