package bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Many open watches, each on its own connection as kubectl and informers hold them: {@code hold}
 * measures the proxy's memory and CPU while they sit idle; {@code revoke} revokes their credential
 * through the API and measures, for each watch, the time until the proxy closed it.
 */
final class Watches {
    private static final String PATH = "/api/v1/namespaces/default/pods?watch=true&resourceVersion=1000";

    private final URI base;
    private final String authorization;
    private final int count;
    private final HttpConnection[] connections;
    private final AtomicLongArray closedAt;
    private final AtomicInteger failed = new AtomicInteger();
    private final boolean sessions;
    private volatile boolean leaving;

    private Watches(Args args) {
        this(args, false);
    }

    private Watches(Args args, boolean sessions) {
        this.sessions = sessions;
        this.base = URI.create(args.text("url"));
        this.authorization = "Bearer " + args.text("token");
        this.count = args.number("count", 1000);
        this.connections = new HttpConnection[count];
        this.closedAt = new AtomicLongArray(count);
    }

    static ObjectNode hold(Args args) throws Exception {
        return hold(args, new Watches(args));
    }

    /**
     * Idle recorded exec sessions instead of watches (issue 42): each a SPDY exec that printed a
     * prompt's worth of output and sits waiting, as a shell left open does, its recorder holding
     * its SPDY readers and its recording open.
     */
    static ObjectNode holdSessions(Args args) throws Exception {
        return hold(args, new Watches(args, true));
    }

    private static ObjectNode hold(Args args, Watches watches) throws Exception {
        long pid = args.longNumber("pid", -1);
        int seconds = args.number("seconds", 20);
        double rssBefore = ProcStat.rssBytes(pid) / 1048576.0;
        long openedIn = watches.openAll();
        // Let the proxy settle after the burst of handshakes before measuring "idle".
        Thread.sleep(TimeUnit.SECONDS.toMillis(Math.min(5, seconds)));
        double cpuBefore = ProcStat.cpuSeconds(pid);
        long started = System.nanoTime();
        long rssMax = 0;
        for (int i = 0; i < seconds; i++) {
            Thread.sleep(1000);
            rssMax = Math.max(rssMax, ProcStat.rssBytes(pid));
        }
        double cpu = ProcStat.cpuSeconds(pid) - cpuBefore;
        double elapsed = (System.nanoTime() - started) / 1e9;
        int stillOpen = watches.stillOpen();
        int files = ProcStat.openFiles(pid);
        watches.closeAll();
        ObjectNode out = Api.JSON.createObjectNode();
        out.put("watches", watches.count).put("failed_to_open", watches.failed.get()).put("open_seconds",
                        openedIn / 1e9).put("still_open_at_end", stillOpen).put("rss_before_mib", Math.round(rssBefore))
                .put("rss_mib", Math.round(rssMax / 1048576.0)).put("cpu_percent_of_one_core",
                        Math.round(cpu / elapsed * 1000) / 10.0).put("held_seconds", Math.round(elapsed))
                .put("proxy_open_files", files);
        return out;
    }

    static ObjectNode revoke(Args args) throws Exception {
        // The API client's first call loads its classes and makes its TLS handshake. Made after
        // the clock started, it added 110-690 ms to the revocation figures (bench/RESULTS.md).
        Api api = new Api(args.text("api")).signedIn(args.text("cookie"));
        api.send("GET", "/api/me", null);
        Watches watches = new Watches(args);
        watches.openAll();
        Thread.sleep(1000);
        long revokedAt = System.nanoTime();
        api.send("POST", "/api/credentials/" + args.text("credential") + "/revoke", "{\"reason\":\"bench\"}");
        long answeredAt = System.nanoTime();
        long deadline = revokedAt + TimeUnit.SECONDS.toNanos(args.number("timeout", 15));
        while (watches.stillOpen() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        int open = watches.stillOpen();
        watches.closeAll();
        long[] delays = new long[watches.count];
        int n = 0;
        for (int i = 0; i < watches.count; i++) {
            long at = watches.closedAt.get(i);
            if (at > 0) {
                delays[n++] = at - revokedAt;
            }
        }
        long[] sorted = Arrays.copyOf(delays, n);
        Arrays.sort(sorted);
        ObjectNode out = Api.JSON.createObjectNode();
        out.put("watches", watches.count).put("failed_to_open", watches.failed.get())
                .put("not_closed_within_timeout", open)
                .put("revoke_call_ms", (answeredAt - revokedAt) / 1e6)
                .put("p50_ms", percentile(sorted, 50)).put("p99_ms", percentile(sorted, 99))
                .put("max_ms", n == 0 ? -1 : sorted[n - 1] / 1e6);
        return out;
    }

    private static double percentile(long[] sorted, double percent) {
        if (sorted.length == 0) {
            return -1;
        }
        int index = (int) Math.ceil(percent / 100 * sorted.length) - 1;
        return sorted[Math.max(0, index)] / 1e6;
    }

    /** Opens every watch (100 handshakes at a time) and returns how long that took. */
    private long openAll() throws InterruptedException {
        long started = System.nanoTime();
        Semaphore opening = new Semaphore(100);
        CountDownLatch opened = new CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            int index = i;
            opening.acquire();
            Thread.ofVirtual().start(() -> watch(index, opening, opened));
        }
        if (!opened.await(60 + count / 50, TimeUnit.SECONDS)) {
            throw new IllegalStateException("watches still opening after " + (60 + count / 50) + " s");
        }
        if (failed.get() > 0) {
            System.err.println(failed.get() + " of " + count + " watches failed to open");
        }
        return System.nanoTime() - started;
    }

    private void watch(int index, Semaphore opening, CountDownLatch opened) {
        HttpConnection connection = new HttpConnection(base);
        connections[index] = connection;
        try {
            if (sessions) {
                openSession(connection);
            } else {
                connection.open();
                connection.out().write(connection.head("GET", PATH, authorization, "").getBytes(StandardCharsets.ISO_8859_1));
                connection.out().flush();
                HttpConnection.Head head = HttpConnection.Head.read(connection.in());
                if (head.status() != 200) {
                    throw new IOException("watch answered " + head.status());
                }
                HttpConnection.Head.line(connection.in()); // the first event's chunk size: the watch is live
            }
            connection.socket().setSoTimeout(0);
        } catch (IOException e) {
            failed.incrementAndGet();
            closedAt.set(index, -1);
            connection.close();
            opening.release();
            opened.countDown();
            return;
        }
        opening.release();
        opened.countDown();
        byte[] buffer = new byte[512];
        InputStream in = connection.in();
        try {
            while (in.read(buffer) >= 0) {
                // Events, if any, are dropped; the end of the stream is what counts.
            }
        } catch (IOException cut) {
            // A reset ends the watch as surely as a clean close.
        }
        if (!leaving) {
            closedAt.set(index, System.nanoTime());
        }
    }

    /** An exec session open and its first output read: the session is live and recorded. */
    private void openSession(HttpConnection connection) throws IOException {
        int prompt = 256;
        try (Spdy spdy = new Spdy()) {
            UpgradeThroughput.open(connection, spdy, authorization, prompt, true);
            byte[] buffer = new byte[4096];
            for (int received = 0; received < prompt; ) {
                int n = connection.in().read(buffer);
                if (n < 0) {
                    throw new IOException("session closed after " + received + " bytes");
                }
                for (Spdy.Frame frame : spdy.read(buffer, n)) {
                    received += frame.stream() == Spdy.STDOUT ? frame.bytes() : 0;
                }
            }
        }
    }

    private int stillOpen() {
        int open = 0;
        for (int i = 0; i < count; i++) {
            if (closedAt.get(i) == 0) {
                open++;
            }
        }
        return open;
    }

    private void closeAll() {
        leaving = true;
        for (HttpConnection connection : connections) {
            if (connection != null) {
                connection.close();
            }
        }
    }
}
