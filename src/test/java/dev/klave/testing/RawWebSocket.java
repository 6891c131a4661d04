package dev.klave.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A WebSocket client over a raw TLS socket, for what no library lets a test send: any request head
 * (subprotocols and extensions as an attacker offers them, any path), the answer's head as it came,
 * then frames as they are (text or binary, masked as a client's must be, RFC 6455 §5.3).
 */
public final class RawWebSocket implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** An answer: its status, its headers (names lower-cased) and, for anything but 101, its body. */
    public record Answer(int status, Map<String, List<String>> headers, String body) {
        public Optional<String> header(String name) {
            return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of()).stream().findFirst();
        }
    }

    /** A message as it came: its opcode (1 text, 2 binary, 8 close) and payload. */
    public record Frame(int opcode, byte[] payload) {
        public String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }
    }

    private final SSLSocket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Answer answer;

    private RawWebSocket(SSLSocket socket, InputStream in, Answer answer) throws IOException {
        this.socket = socket;
        this.in = in;
        this.out = socket.getOutputStream();
        this.answer = answer;
    }

    /**
     * Sends {@code method path} with a WebSocket upgrade's head (key, version, Host) plus {@code
     * headers}, and reads the answer's head (and a refusal's body, up to its length).
     */
    public static RawWebSocket open(SSLContext tls, int port, String method, String path, Map<String, String> headers)
            throws IOException {
        SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout((int) Duration.ofSeconds(20).toMillis());
        Map<String, String> head = new LinkedHashMap<>();
        head.put("Host", "127.0.0.1:" + port);
        head.put("Connection", "Upgrade");
        head.put("Upgrade", "websocket");
        head.put("Sec-WebSocket-Version", "13");
        byte[] key = new byte[16];
        RANDOM.nextBytes(key);
        head.put("Sec-WebSocket-Key", Base64.getEncoder().encodeToString(key));
        head.putAll(headers);
        StringBuilder request = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        head.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        request.append("\r\n");
        socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        InputStream in = socket.getInputStream();
        return new RawWebSocket(socket, in, readAnswer(in));
    }

    private static Answer readAnswer(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int next = in.read();
            if (next < 0) {
                throw new IOException("the connection closed before the answer's head ended");
            }
            if (next == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1).stripTrailing();
                line.reset();
                if (text.isEmpty()) {
                    break;
                }
                lines.add(text);
            } else {
                line.write(next);
            }
        }
        int status = Integer.parseInt(lines.get(0).split(" ")[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String header : lines.subList(1, lines.size())) {
            int colon = header.indexOf(':');
            headers.computeIfAbsent(header.substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    ignored -> new ArrayList<>()).add(header.substring(colon + 1).strip());
        }
        String body = "";
        if (status != 101) {
            int length = Integer.parseInt(headers.getOrDefault("content-length", List.of("0")).get(0));
            body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        }
        return new Answer(status, headers, body);
    }

    public Answer answer() {
        return answer;
    }

    public void sendText(String text) throws IOException {
        send(0x1, text.getBytes(StandardCharsets.UTF_8));
    }

    public void sendBinary(byte[] payload) throws IOException {
        send(0x2, payload);
    }

    public void sendClose() throws IOException {
        send(0x8, new byte[] {0x03, (byte) 0xe8});
    }

    private synchronized void send(int opcode, byte[] payload) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x80 | opcode);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else {
            frame.write(0x80 | 126);
            frame.write(payload.length >> 8);
            frame.write(payload.length);
        }
        byte[] mask = new byte[4];
        RANDOM.nextBytes(mask);
        frame.write(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i % 4]);
        }
        out.write(frame.toByteArray());
        out.flush();
    }

    /** The next whole message, or empty once the connection ended. */
    public Optional<Frame> read() throws IOException {
        try {
            int first = in.read();
            if (first < 0) {
                return Optional.empty();
            }
            int second = in.read();
            long length = second & 0x7f;
            if (length == 126) {
                length = (in.read() << 8) | in.read();
            } else if (length == 127) {
                length = 0;
                for (int i = 0; i < 8; i++) {
                    length = (length << 8) | in.read();
                }
            }
            byte[] payload = in.readNBytes((int) length);
            return Optional.of(new Frame(first & 0x0f, payload));
        } catch (SocketTimeoutException | java.net.SocketException ended) {
            return Optional.empty();
        }
    }

    /** Every message until the connection ends (or the read times out). */
    public List<Frame> readAll() throws IOException {
        List<Frame> frames = new ArrayList<>();
        for (Optional<Frame> frame = read(); frame.isPresent(); frame = read()) {
            frames.add(frame.get());
            if (frame.get().opcode() == 8) {
                break;
            }
        }
        return frames;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
