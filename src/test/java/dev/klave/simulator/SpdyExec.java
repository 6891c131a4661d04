package dev.klave.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Exec and attach over SPDY/3.1 with {@code v4.channel.k8s.io}, as kubelet serves them: the client
 * opens one stream per {@code streamtype} (error, stdin, stdout, stderr, resize); once all the
 * request's streams are there the command runs, its exit Status goes on the error stream as JSON,
 * and every stream is half-closed.
 */
final class SpdyExec {
    static final List<String> PROTOCOLS = List.of("v4.channel.k8s.io");
    private static final long STREAM_WAIT_MILLIS = 30_000;

    private SpdyExec() {
    }

    static void serve(HttpExchange exchange, ExecRequest exec) throws IOException {
        try (SpdySession session = SpdyUpgrade.accept(exchange, PROTOCOLS)) {
            Map<String, SpdySession.Stream> streams = awaitStreams(session, expected(exec));
            if (!streams.containsKey("error")) {
                return;
            }
            InputStream stdin = streams.containsKey("stdin") ? streams.get("stdin").input() : InputStream.nullInputStream();
            OutputStream stdout = streams.containsKey("stdout") ? streams.get("stdout").output() : OutputStream.nullOutputStream();
            OutputStream stderr = streams.containsKey("stderr") ? streams.get("stderr").output() : OutputStream.nullOutputStream();
            int exitCode = exec.run(new ScriptedContainer.Streams(stdin, stdout, stderr));
            for (String type : List.of("stdout", "stderr")) {
                if (streams.containsKey(type)) {
                    streams.get(type).finish();
                }
            }
            SpdySession.Stream error = streams.get("error");
            if (exitCode != 0) {
                error.output().write(Json.bytes(exec.status(exitCode)));
            }
            error.finish();
            session.awaitClientClose(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Set<String> expected(ExecRequest exec) {
        Set<String> types = new TreeSet<>();
        types.add("error");
        if (exec.stdin()) {
            types.add("stdin");
        }
        if (exec.stdout()) {
            types.add("stdout");
        }
        if (exec.stderr()) {
            types.add("stderr");
        }
        if (exec.tty()) {
            types.add("resize");
        }
        return types;
    }

    /** Collects the client's streams by type until every expected one arrived (kubelet waits 30 s). */
    private static Map<String, SpdySession.Stream> awaitStreams(SpdySession session, Set<String> expected)
            throws InterruptedException {
        Map<String, SpdySession.Stream> streams = new HashMap<>();
        long deadline = System.currentTimeMillis() + STREAM_WAIT_MILLIS;
        while (!streams.keySet().containsAll(expected)) {
            long left = deadline - System.currentTimeMillis();
            Optional<SpdySession.Stream> stream = left > 0 ? session.nextStream(left) : Optional.empty();
            if (stream.isEmpty()) {
                return Map.of();
            }
            streams.put(stream.get().header("streamtype"), stream.get());
        }
        return streams;
    }
}
