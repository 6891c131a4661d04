package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The server side of one WebSocket (RFC 6455): the opening handshake with subprotocol selection,
 * then binary messages both ways. Client frames are masked, server frames are not; pings are
 * answered, fragments joined, and a close frame ends the reading side.
 */
final class WebSocketConnection {
    private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final int MAX_MESSAGE = 16 * 1024 * 1024;

    private final InputStream in;
    private final OutputStream out;
    private boolean closeSent;

    private WebSocketConnection(InputStream in, OutputStream out) {
        this.in = in;
        this.out = out;
    }

    static boolean requested(HttpRequest request) {
        return request.header("upgrade").map(value -> value.equalsIgnoreCase("websocket")).orElse(false);
    }

    /** The first of the client's subprotocols that the server supports, in the client's order. */
    static Optional<String> choose(HttpRequest request, List<String> supported) {
        return request.headerValues("sec-websocket-protocol").stream().filter(supported::contains).findFirst();
    }

    static WebSocketConnection accept(HttpExchange exchange, String protocol) throws IOException {
        return accept(exchange, protocol, Map.of());
    }

    /** As {@link #accept(HttpExchange, String)}, the 101 carrying {@code extra} headers too (replacing its own). */
    static WebSocketConnection accept(HttpExchange exchange, String protocol, Map<String, String> extra)
            throws IOException {
        requireNonNull(protocol, "protocol is null");
        String key = exchange.request().header("sec-websocket-key")
                .orElseThrow(() -> ApiException.badRequest("missing Sec-WebSocket-Key"));
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Upgrade", "websocket");
        headers.put("Connection", "Upgrade");
        headers.put("Sec-WebSocket-Accept", acceptValue(key));
        if (!protocol.isEmpty()) {
            headers.put("Sec-WebSocket-Protocol", protocol);
        }
        headers.putAll(extra);
        HttpExchange.RawConnection raw = exchange.switchProtocols(headers);
        return new WebSocketConnection(raw.in(), raw.out());
    }

    static String acceptValue(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest((key + ACCEPT_GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The next data message, or empty once the client closed the WebSocket or the connection. */
    Optional<byte[]> read() throws IOException {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        while (true) {
            int first = in.read();
            if (first < 0) {
                return Optional.empty();
            }
            boolean fin = (first & 0x80) != 0;
            int opcode = first & 0x0F;
            byte[] payload = readPayload();
            switch (opcode) {
                case 0x8 -> {
                    sendClose(1000);
                    return Optional.empty();
                }
                case 0x9 -> send(0xA, payload);
                case 0xA -> {
                    // a pong needs no answer
                }
                default -> {
                    message.write(payload);
                    if (message.size() > MAX_MESSAGE) {
                        throw new IOException("WebSocket message too large");
                    }
                    if (fin) {
                        return Optional.of(message.toByteArray());
                    }
                }
            }
        }
    }

    void sendBinary(byte[] data) throws IOException {
        send(0x2, data);
    }

    void sendText(byte[] data) throws IOException {
        send(0x1, data);
    }

    /** Sends a close frame (once); the peer answers and closes the connection. */
    void sendClose(int code) throws IOException {
        synchronized (this) {
            if (closeSent) {
                return;
            }
            closeSent = true;
        }
        send(0x8, new byte[] {(byte) (code >> 8), (byte) code});
    }

    private synchronized void send(int opcode, byte[] data) throws IOException {
        out.write(0x80 | opcode);
        if (data.length < 126) {
            out.write(data.length);
        } else if (data.length < 65536) {
            out.write(126);
            out.write(data.length >> 8);
            out.write(data.length);
        } else {
            out.write(127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) ((long) data.length >> shift));
            }
        }
        out.write(data);
        out.flush();
    }

    private byte[] readPayload() throws IOException {
        int second = readByte();
        boolean masked = (second & 0x80) != 0;
        long length = second & 0x7F;
        if (length == 126) {
            length = (readByte() << 8) | readByte();
        } else if (length == 127) {
            length = 0;
            for (int i = 0; i < 8; i++) {
                length = (length << 8) | readByte();
            }
        }
        if (length > MAX_MESSAGE) {
            throw new IOException("WebSocket frame too large");
        }
        byte[] mask = masked ? in.readNBytes(4) : null;
        byte[] payload = in.readNBytes((int) length);
        if (payload.length != length) {
            throw new EOFException("connection closed inside a WebSocket frame");
        }
        if (mask != null) {
            for (int i = 0; i < payload.length; i++) {
                payload[i] ^= mask[i % 4];
            }
        }
        return payload;
    }

    private int readByte() throws IOException {
        int value = in.read();
        if (value < 0) {
            throw new EOFException("connection closed inside a WebSocket frame");
        }
        return value;
    }
}
