package bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Bytes per second through an exec-style upgraded connection: kubectl's SPDY/3.1 upgrade request
 * (a POST to .../exec), the 101 answer, kubectl's streams opened, then the command's output in
 * SPDY data frames until the stream ends — the shape of {@code kubectl exec pod -- cat big-file}
 * or {@code kubectl cp}. Through Klave the session is recorded (the cluster's default policy, on)
 * up to its cap: the figure is the relay with its recorder.
 */
final class UpgradeThroughput {
    private UpgradeThroughput() {}

    static ObjectNode run(Args args) throws Exception {
        URI base = URI.create(args.text("url"));
        String authorization = args.text("token", "").isEmpty() ? "" : "Bearer " + args.text("token");
        long bytes = args.longNumber("mib", 256) << 20;
        int repeat = args.number("repeat", 3);
        double[] rates = new double[repeat];
        for (int i = 0; i < repeat; i++) {
            rates[i] = once(base, authorization, bytes);
        }
        Arrays.sort(rates);
        ObjectNode out = Api.JSON.createObjectNode();
        out.put("mib_per_transfer", bytes >> 20).put("transfers", repeat)
                .put("median_mib_s", Math.round(rates[repeat / 2])).put("best_mib_s", Math.round(rates[repeat - 1]));
        return out;
    }

    private static double once(URI base, String authorization, long bytes) throws IOException {
        try (HttpConnection connection = new HttpConnection(base); Spdy spdy = new Spdy()) {
            open(connection, spdy, authorization, bytes, false);
            long started = System.nanoTime();
            long received = 0;
            boolean stdoutEnded = false;
            boolean errorEnded = false;
            byte[] buffer = new byte[256 * 1024];
            InputStream in = connection.in();
            for (int n = in.read(buffer); n >= 0 && !(stdoutEnded && errorEnded); n = in.read(buffer)) {
                for (Spdy.Frame frame : spdy.read(buffer, n)) {
                    if (frame.stream() == Spdy.STDOUT) {
                        received += frame.bytes();
                        stdoutEnded |= frame.last();
                    } else if (frame.stream() == Spdy.ERROR) {
                        errorEnded |= frame.last();
                    }
                }
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            if (received != bytes) {
                throw new IOException("received " + received + " of " + bytes + " bytes");
            }
            return bytes / 1048576.0 / seconds;
        }
    }

    /**
     * Opens an exec session as kubectl does over SPDY/3.1: the upgrade request, the 101, then the
     * SYN_STREAMs of the error and stdout streams. With {@code hold} the stand-in sends its
     * {@code bytes} of output and then keeps the session open and silent.
     */
    static void open(HttpConnection connection, Spdy spdy, String authorization, long bytes, boolean hold)
            throws IOException {
        connection.open();
        String path = "/api/v1/namespaces/default/pods/web-0/exec?command=cat&stdout=true&bytes=" + bytes
                + (hold ? "&hold=1" : "");
        String upgrade = "Connection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n"
                + "Content-Length: 0\r\n";
        connection.out().write(connection.head("POST", path, authorization, upgrade)
                .getBytes(StandardCharsets.ISO_8859_1));
        connection.out().flush();
        HttpConnection.Head head = HttpConnection.Head.read(connection.in());
        if (head.status() != 101) {
            throw new IOException("upgrade answered " + head.status());
        }
        connection.out().write(spdy.openExecStreams());
        connection.out().flush();
    }
}
