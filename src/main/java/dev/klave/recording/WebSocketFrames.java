package dev.klave.recording;

import java.io.ByteArrayOutputStream;

/**
 * An incremental reader of one direction of a WebSocket connection (RFC 6455 §5.2): fed the bytes
 * as they were relayed, in pieces of any size, it hands each complete message (fragments joined,
 * masks removed) to its {@link Sink}. Control frames (close, ping, pong) are passed through as
 * messages of their own. A frame it cannot read — reserved bits, an unknown opcode, a message over
 * {@link #MAX_MESSAGE} — makes it {@link #failed()} for good: the recording ends, never the session.
 */
final class WebSocketFrames {
    /** The largest message kept: a kubectl frame carries at most 32 KiB of a stream. */
    static final int MAX_MESSAGE = 1 << 20;

    /** A complete message: its opcode (of the first fragment) and payload. */
    @FunctionalInterface
    interface Sink {
        void message(int opcode, byte[] payload);
    }

    private final Sink sink;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final ByteArrayOutputStream message = new ByteArrayOutputStream();
    private int messageOpcode = -1;
    private boolean failed;

    WebSocketFrames(Sink sink) {
        this.sink = sink;
    }

    boolean failed() {
        return failed;
    }

    /** Reads {@code bytes} on from where the last call stopped. */
    void feed(byte[] bytes) {
        if (failed) {
            return;
        }
        // Usually nothing waits from the last piece: the piece is read where it is, not copied.
        byte[] buffer;
        if (pending.size() == 0) {
            buffer = bytes;
        } else {
            pending.writeBytes(bytes);
            buffer = pending.toByteArray();
        }
        int offset = 0;
        while (!failed) {
            int used = frame(buffer, offset);
            if (used == 0) {
                break;
            }
            offset += used;
        }
        pending.reset();
        if (!failed && offset < buffer.length) {
            pending.write(buffer, offset, buffer.length - offset);
        }
        if (pending.size() > MAX_MESSAGE + 14) {
            failed = true;
        }
    }

    /** One frame at {@code offset}: how many bytes it took, or 0 when it is not whole yet. */
    private int frame(byte[] buffer, int offset) {
        int available = buffer.length - offset;
        if (available < 2) {
            return 0;
        }
        int first = buffer[offset] & 0xff;
        int second = buffer[offset + 1] & 0xff;
        boolean fin = (first & 0x80) != 0;
        int opcode = first & 0x0f;
        if ((first & 0x70) != 0 || !(opcode <= 2 || (opcode >= 8 && opcode <= 10))) {
            failed = true;
            return 0;
        }
        boolean masked = (second & 0x80) != 0;
        long length = second & 0x7f;
        int header = 2;
        if (length == 126) {
            if (available < 4) {
                return 0;
            }
            length = ((buffer[offset + 2] & 0xff) << 8) | (buffer[offset + 3] & 0xff);
            header = 4;
        } else if (length == 127) {
            if (available < 10) {
                return 0;
            }
            length = 0;
            for (int i = 0; i < 8; i++) {
                length = (length << 8) | (buffer[offset + 2 + i] & 0xff);
            }
            header = 10;
        }
        if (length < 0 || length > MAX_MESSAGE) {
            failed = true;
            return 0;
        }
        int maskAt = offset + header;
        header += masked ? 4 : 0;
        if (available < header + length) {
            return 0;
        }
        byte[] payload = new byte[(int) length];
        System.arraycopy(buffer, offset + header, payload, 0, payload.length);
        if (masked) {
            for (int i = 0; i < payload.length; i++) {
                payload[i] ^= buffer[maskAt + (i % 4)];
            }
        }
        deliver(fin, opcode, payload);
        return header + (int) length;
    }

    private void deliver(boolean fin, int opcode, byte[] payload) {
        if (opcode >= 8) {
            // Control frames are never fragmented and may come between a message's fragments.
            sink.message(opcode, payload);
            return;
        }
        if (opcode != 0) {
            if (messageOpcode != -1) {
                failed = true;
                return;
            }
            messageOpcode = opcode;
        } else if (messageOpcode == -1) {
            failed = true;
            return;
        }
        message.writeBytes(payload);
        if (message.size() > MAX_MESSAGE) {
            failed = true;
            return;
        }
        if (fin) {
            sink.message(messageOpcode, message.toByteArray());
            message.reset();
            messageOpcode = -1;
        }
    }
}
