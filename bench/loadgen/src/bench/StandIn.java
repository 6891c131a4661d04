package bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * The parts of the stand-in Kubernetes API server that nginx cannot serve from files (nginx sits
 * in front of it and terminates TLS): watches that send one event and then stay silent until the
 * client goes away, and exec-style upgrades that answer 101 and then stream {@code bytes=N}
 * bytes of output in SPDY/3.1 frames before closing, like {@code kubectl exec … cat big-file}.
 */
final class StandIn {
    private static final byte[] EVENT = ("{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\","
            + "\"metadata\":{\"name\":\"web-0\",\"namespace\":\"default\",\"resourceVersion\":\"1001\"}}}\n")
            .getBytes(StandardCharsets.UTF_8);

    private StandIn() {}

    static void serve(Args args) throws IOException {
        int port = args.number("port", 19080);
        try (ServerSocket server = new ServerSocket(port, 4096, InetAddress.getLoopbackAddress())) {
            System.err.println("stand-in listening on " + port);
            while (true) {
                Socket socket = server.accept();
                Thread.ofVirtual().start(() -> handle(socket));
            }
        }
    }

    private static void handle(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            String requestLine = HttpConnection.Head.line(in);
            String upgrade = null;
            for (String header = HttpConnection.Head.line(in); !header.isEmpty(); header = HttpConnection.Head.line(in)) {
                if (header.toLowerCase(Locale.ROOT).startsWith("upgrade:")) {
                    upgrade = header.substring(8).strip();
                }
            }
            String target = requestLine.split(" ")[1];
            if (upgrade != null) {
                stream(in, out, upgrade, query(target, "bytes", 256L << 20), query(target, "hold", 0) == 1);
            } else if (target.contains("watch=true")) {
                watch(in, out);
            } else {
                out.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
            }
        } catch (IOException gone) {
            // The client left; nothing to clean up.
        }
    }

    private static void watch(InputStream in, OutputStream out) throws IOException {
        String head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write((Integer.toHexString(EVENT.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(EVENT);
        out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        // Silent until the proxy closes its end (client gone, or the stream cut).
        while (in.read() >= 0) {
            // Nothing is expected from the client of a watch.
        }
    }

    /**
     * An exec's answer as the kubelet gives it over SPDY/3.1: the 101, a SYN_REPLY to each stream
     * the client opened, the output in data frames of 32 KiB on stdout, then both streams closed
     * (an empty error stream: the command succeeded). With {@code hold=1} the output is sent and
     * the session then stays open and silent, like a shell waiting at its prompt, until the client
     * leaves.
     */
    private static void stream(InputStream in, OutputStream out, String protocol, long bytes, boolean hold)
            throws IOException {
        out.write(("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: " + protocol
                + "\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        try (Spdy spdy = new Spdy()) {
            byte[] piece = new byte[4096];
            for (int opened = 0; opened < 2; ) {
                int n = in.read(piece);
                if (n < 0) {
                    return;
                }
                for (Spdy.Frame frame : spdy.read(piece, n)) {
                    if (frame.opens()) {
                        out.write(spdy.reply(frame.stream()));
                        opened++;
                    }
                }
            }
            byte[] chunk = new byte[32 * 1024];
            Arrays.fill(chunk, (byte) 'k');
            // Data frames carry no compressed part: every full one is the same bytes, made once.
            byte[] full = spdy.data(Spdy.STDOUT, chunk, chunk.length, false);
            for (long left = bytes; left > 0; left -= chunk.length) {
                int length = (int) Math.min(chunk.length, left);
                boolean last = !hold && left == length;
                out.write(length == chunk.length && !last ? full : spdy.data(Spdy.STDOUT, chunk, length, last));
            }
            out.flush();
            if (hold) {
                while (in.read(piece) >= 0) {
                    // A held session: nothing to do until the client goes.
                }
                return;
            }
            out.write(spdy.data(Spdy.ERROR, chunk, 0, true));
            out.flush();
        }
    }

    private static long query(String target, String name, long fallback) {
        int question = target.indexOf('?');
        if (question < 0) {
            return fallback;
        }
        for (String pair : target.substring(question + 1).split("&")) {
            if (pair.startsWith(name + "=")) {
                return Long.parseLong(pair.substring(name.length() + 1));
            }
        }
        return fallback;
    }
}
