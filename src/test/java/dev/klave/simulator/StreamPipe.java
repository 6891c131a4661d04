package dev.klave.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A bounded pipe of byte chunks between two threads (a stream's reader feeding a command's
 * stdin). Unlike PipedInputStream it does not care which threads write or read, and a full pipe
 * blocks the writer, which pushes back on the client.
 */
final class StreamPipe extends InputStream {
    private static final byte[] END = new byte[0];

    private final BlockingQueue<byte[]> chunks = new ArrayBlockingQueue<>(64);
    private byte[] current = new byte[0];
    private int position;
    private boolean ended;

    void write(byte[] data) throws IOException {
        if (data.length == 0) {
            return;
        }
        try {
            chunks.put(Arrays.copyOf(data, data.length));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** No more data: the reader sees end of stream after what is queued. */
    void finish() {
        try {
            chunks.put(END);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int count = read(one, 0, 1);
        return count < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (position >= current.length) {
            if (ended) {
                return -1;
            }
            try {
                current = chunks.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            position = 0;
            if (current == END) {
                ended = true;
                return -1;
            }
        }
        int count = Math.min(length, current.length - position);
        System.arraycopy(current, position, buffer, offset, count);
        position += count;
        return count;
    }
}
