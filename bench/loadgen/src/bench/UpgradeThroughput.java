package bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Bytes per second through an exec-style upgraded connection: kubectl's SPDY/3.1 upgrade request
 * (a POST to .../exec), the 101 answer, then the command's output streamed to the client until
 * the server closes — the shape of {@code kubectl exec pod -- cat big-file} or {@code kubectl cp}.
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
        try (HttpConnection connection = new HttpConnection(base)) {
            connection.open();
            String path = "/api/v1/namespaces/default/pods/web-0/exec?command=cat&stdout=true&bytes=" + bytes;
            String upgrade = "Connection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n"
                    + "Content-Length: 0\r\n";
            connection.out().write(connection.head("POST", path, authorization, upgrade)
                    .getBytes(StandardCharsets.ISO_8859_1));
            connection.out().flush();
            HttpConnection.Head head = HttpConnection.Head.read(connection.in());
            if (head.status() != 101) {
                throw new IOException("upgrade answered " + head.status());
            }
            long started = System.nanoTime();
            long received = 0;
            byte[] buffer = new byte[256 * 1024];
            InputStream in = connection.in();
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                received += n;
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            if (received != bytes) {
                throw new IOException("received " + received + " of " + bytes + " bytes");
            }
            return bytes / 1048576.0 / seconds;
        }
    }
}
