package dev.klave.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What came back on one raw connection, byte for byte, and whether Klave closed it: for requests
 * no HTTP client would send (framing, chunk lines, half-sent heads).
 */
public record RawExchange(String text, boolean closedByKlave) {
    /** How long a connection may stay quiet before it counts as kept open by Klave. */
    private static final int QUIET_MILLIS = 5_000;

    /** Writes {@code bytes} on a new connection to {@code port} and reads until Klave closes or goes quiet. */
    public static RawExchange send(int port, String bytes) throws IOException {
        return send(port, bytes, () -> { }, "");
    }

    /**
     * As {@link #send(int, String)}, in two writes: {@code rest} once {@code between} has returned,
     * a wait for what {@code first} must have caused (the request's head at the cluster, say).
     */
    public static RawExchange send(int port, String first, Runnable between, String rest) throws IOException {
        try (Socket socket = connect(port, "127.0.0.1")) {
            socket.setSoTimeout(QUIET_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(first.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            between.run();
            if (!rest.isEmpty()) {
                out.write(rest.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
            return read(socket.getInputStream());
        }
    }

    /**
     * A connection to Klave on {@code port} from the loopback address {@code from} (all of
     * 127.0.0.0/8 is this machine's), so that a test can be several clients at once.
     */
    public static Socket connect(int port, String from) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port, InetAddress.getByName(from), 0);
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** The head of the next answer on {@code socket}; fails if the connection ends first. */
    public static String head(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new AssertionError("closed before a whole head: " + head);
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.UTF_8);
    }

    private static RawExchange read(InputStream in) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int read; (read = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, read);
            }
            return new RawExchange(received.toString(StandardCharsets.UTF_8), true);
        } catch (SocketTimeoutException stillOpen) {
            return new RawExchange(received.toString(StandardCharsets.UTF_8), false);
        } catch (SocketException reset) {
            // Closed with unread bytes of ours still in its buffer: a reset, but closed all the same.
            return new RawExchange(received.toString(StandardCharsets.UTF_8), true);
        }
    }

    public int responses() {
        return (int) Pattern.compile("HTTP/1\\.[01] \\d{3} ").matcher(text).results().count();
    }

    public String auditId() {
        Matcher matcher = Pattern.compile("(?mi)^audit-id: (\\S+)\\r?$").matcher(text);
        assertThat(matcher.find()).as("Audit-ID in%n%s", text).isTrue();
        return matcher.group(1);
    }

    /** The body of the first answer. */
    public String body() {
        int start = text.indexOf("\r\n\r\n");
        return start < 0 ? "" : text.substring(start + 4);
    }
}
