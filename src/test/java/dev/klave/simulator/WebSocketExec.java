package dev.klave.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Exec and attach over WebSocket with the channel protocols kubectl 1.32 offers first
 * ({@code v5.channel.k8s.io}, then {@code v4.channel.k8s.io}): every binary message starts with
 * its channel, 0 stdin, 1 stdout, 2 stderr, 3 the error stream's Status, 4 resize; v5 adds 255,
 * "this channel is closed", which is how the client ends stdin.
 */
final class WebSocketExec {
    static final List<String> PROTOCOLS = List.of("v5.channel.k8s.io", "v4.channel.k8s.io");
    private static final int STDIN = 0;
    private static final int STDOUT = 1;
    private static final int STDERR = 2;
    private static final int ERROR = 3;
    private static final int CLOSE = 255;
    /**
     * How long the command takes to start after the 101. kubectl 1.32 starts reading the
     * WebSocket before it has registered its streams and drops a message for a stream it does
     * not know yet ("Unknown stream id 1, discarding message"; kubernetes/kubernetes#131189,
     * fixed upstream by #131203, after the kubectl these machines have). A command that answered
     * at once could then look like one that printed nothing and exited 0 (seen once in CI, through
     * Klave, which may pass the 101 and the first frames on together). A real cluster never
     * answers that fast: the command starts in a container through the kubelet.
     */
    private static final long COMMAND_START_MILLIS = 100;

    private WebSocketExec() {
    }

    static void serve(HttpExchange exchange, ExecRequest exec) throws IOException {
        Optional<String> protocol = WebSocketConnection.choose(exchange.request(), PROTOCOLS);
        if (protocol.isEmpty()) {
            throw ApiException.badRequest("unable to upgrade: no supported WebSocket subprotocol: "
                    + exchange.request().headerValues("sec-websocket-protocol"));
        }
        WebSocketConnection socket = WebSocketConnection.accept(exchange, protocol.get());
        StreamPipe stdin = new StreamPipe();
        Thread.ofVirtual().name("simulator-exec-ws-read").start(() -> readClient(socket, stdin));
        InputStream input = exec.stdin() ? stdin : InputStream.nullInputStream();
        try {
            Thread.sleep(COMMAND_START_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the command started");
        }
        int exitCode = exec.run(new ScriptedContainer.Streams(input, channel(socket, STDOUT), channel(socket, STDERR)));
        socket.sendBinary(prefixed(ERROR, Json.bytes(exec.status(exitCode))));
        socket.sendClose(1000);
    }

    private static void readClient(WebSocketConnection socket, StreamPipe stdin) {
        try {
            for (Optional<byte[]> message = socket.read(); message.isPresent(); message = socket.read()) {
                byte[] data = message.get();
                if (data.length == 0) {
                    continue;
                }
                int channel = data[0] & 0xFF;
                if (channel == STDIN) {
                    stdin.write(Arrays.copyOfRange(data, 1, data.length));
                } else if (channel == CLOSE && data.length > 1 && data[1] == STDIN) {
                    stdin.finish();
                }
            }
        } catch (IOException closed) {
            // the client went away; the command sees end of input
        }
        stdin.finish();
    }

    private static OutputStream channel(WebSocketConnection socket, int channel) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] buffer, int offset, int length) throws IOException {
                if (length > 0) {
                    socket.sendBinary(prefixed(channel, Arrays.copyOfRange(buffer, offset, offset + length)));
                }
            }
        };
    }

    private static byte[] prefixed(int channel, byte[] data) {
        byte[] message = new byte[data.length + 1];
        message[0] = (byte) channel;
        System.arraycopy(data, 0, message, 1, data.length);
        return message;
    }
}
