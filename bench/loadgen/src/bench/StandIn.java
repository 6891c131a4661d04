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
 * bytes of output before closing, like {@code kubectl exec … cat big-file}.
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
                stream(out, upgrade, query(target, "bytes", 256L << 20));
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

    private static void stream(OutputStream out, String protocol, long bytes) throws IOException {
        out.write(("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: " + protocol
                + "\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) 'k');
        for (long left = bytes; left > 0; left -= chunk.length) {
            out.write(chunk, 0, (int) Math.min(chunk.length, left));
        }
        out.flush();
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
