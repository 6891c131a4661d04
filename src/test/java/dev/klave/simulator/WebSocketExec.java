package dev.klave.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Exec and attach over WebSocket with the channel protocols the kubelet serves (k8s.io/apiserver's
 * wsstream): kubectl 1.32 offers {@code v5.channel.k8s.io}, then {@code v4.channel.k8s.io}, where
 * every binary message starts with its channel, 0 stdin, 1 stdout, 2 stderr, 3 the error stream's
 * Status, 4 resize, and v5 adds 255, "this channel is closed", which is how the client ends stdin.
 * Browser terminals offer {@code v4.base64.channel.k8s.io} or {@code base64.channel.k8s.io}: text
 * messages, the channel's digit then the data in base64, in both directions. The older
 * {@code channel.k8s.io} is binary as v4.
 */
final class WebSocketExec {
    static final List<String> PROTOCOLS = List.of("v5.channel.k8s.io", "v4.channel.k8s.io",
            "v4.base64.channel.k8s.io", "base64.channel.k8s.io", "channel.k8s.io");
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

    /** @param answer headers the 101 carries instead of its own (a fault; empty: the server's own choice) */
    static void serve(HttpExchange exchange, ExecRequest exec, java.util.Map<String, String> answer)
            throws IOException {
        Optional<String> protocol = WebSocketConnection.choose(exchange.request(), PROTOCOLS);
        if (protocol.isEmpty() && answer.isEmpty()) {
            throw ApiException.badRequest("unable to upgrade: no supported WebSocket subprotocol: "
                    + exchange.request().headerValues("sec-websocket-protocol"));
        }
        String chosen = answer.getOrDefault("Sec-WebSocket-Protocol", protocol.orElse(""));
        WebSocketConnection socket = WebSocketConnection.accept(exchange, chosen, answer);
        boolean base64 = chosen.contains("base64");
        StreamPipe stdin = new StreamPipe();
        Thread.ofVirtual().name("simulator-exec-ws-read").start(() -> readClient(socket, stdin, base64));
        InputStream input = exec.stdin() ? stdin : InputStream.nullInputStream();
        try {
            Thread.sleep(COMMAND_START_MILLIS); // the cluster's start-up time (above), played to kubectl
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the command started");
        }
        int exitCode = exec.run(new ScriptedContainer.Streams(input, channel(socket, STDOUT, base64),
                channel(socket, STDERR, base64)));
        send(socket, ERROR, Json.bytes(exec.status(exitCode)), base64);
        socket.sendClose(1000);
    }

    private static void send(WebSocketConnection socket, int channel, byte[] data, boolean base64) throws IOException {
        if (base64) {
            socket.sendText(((char) ('0' + channel) + java.util.Base64.getEncoder().encodeToString(data))
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return;
        }
        socket.sendBinary(prefixed(channel, data));
    }

    private static void readClient(WebSocketConnection socket, StreamPipe stdin, boolean base64) {
        try {
            for (Optional<byte[]> message = socket.read(); message.isPresent(); message = socket.read()) {
                byte[] data = message.get();
                if (data.length == 0) {
                    continue;
                }
                if (base64) {
                    int channel = data[0] - '0';
                    byte[] decoded = java.util.Base64.getDecoder().decode(Arrays.copyOfRange(data, 1, data.length));
                    if (channel == STDIN) {
                        stdin.write(decoded);
                    }
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

    private static OutputStream channel(WebSocketConnection socket, int channel, boolean base64) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] buffer, int offset, int length) throws IOException {
                if (length > 0) {
                    send(socket, channel, Arrays.copyOfRange(buffer, offset, offset + length), base64);
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
