package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Optional;

/**
 * A byte stream carried in WebSocket binary messages, as client-go tunnels SPDY for port-forward
 * ({@code SPDY/3.1+portforward.k8s.io}): message boundaries mean nothing, bytes are read in order.
 */
final class WebSocketTunnel implements AutoCloseable {
    private final WebSocketConnection socket;
    private final InputStream input = new Input();
    private final OutputStream output;

    WebSocketTunnel(WebSocketConnection socket) {
        this.socket = requireNonNull(socket, "socket is null");
        // One SPDY frame becomes one message: the codec flushes after each frame.
        this.output = new BufferedOutputStream(new Output(), 64 * 1024);
    }

    InputStream input() {
        return input;
    }

    OutputStream output() {
        return output;
    }

    @Override
    public void close() throws IOException {
        socket.sendClose(1000);
    }

    private final class Input extends InputStream {
        private byte[] current = new byte[0];
        private int position;
        private boolean ended;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            // InputStream's contract: asking for nothing returns at once (readNBytes relies on it).
            if (length == 0) {
                return 0;
            }
            while (position >= current.length) {
                if (ended) {
                    return -1;
                }
                Optional<byte[]> message = socket.read();
                if (message.isEmpty()) {
                    ended = true;
                    return -1;
                }
                current = message.get();
                position = 0;
            }
            int count = Math.min(length, current.length - position);
            System.arraycopy(current, position, buffer, offset, count);
            position += count;
            return count;
        }
    }

    private final class Output extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] buffer, int offset, int length) throws IOException {
            if (length > 0) {
                socket.sendBinary(Arrays.copyOfRange(buffer, offset, offset + length));
            }
        }
    }
}
