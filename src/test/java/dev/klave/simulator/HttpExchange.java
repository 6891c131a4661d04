package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One request and the means to answer it: a whole body, a chunked stream (watch, log follow), or
 * a protocol switch that hands the raw connection over (WebSocket, SPDY).
 */
final class HttpExchange {
    private static final Map<Integer, String> REASONS = Map.ofEntries(
            Map.entry(101, "Switching Protocols"), Map.entry(200, "OK"), Map.entry(201, "Created"),
            Map.entry(202, "Accepted"), Map.entry(400, "Bad Request"), Map.entry(401, "Unauthorized"),
            Map.entry(403, "Forbidden"), Map.entry(404, "Not Found"), Map.entry(405, "Method Not Allowed"),
            Map.entry(406, "Not Acceptable"), Map.entry(409, "Conflict"), Map.entry(410, "Gone"),
            Map.entry(415, "Unsupported Media Type"), Map.entry(422, "Unprocessable Entity"),
            Map.entry(500, "Internal Server Error"), Map.entry(503, "Service Unavailable"));

    private HttpRequest request;
    private final InputStream in;
    private final OutputStream out;
    private boolean responded;
    private boolean connectionTaken;

    HttpExchange(HttpRequest request, InputStream in, OutputStream out) {
        this.request = requireNonNull(request, "request is null");
        this.in = requireNonNull(in, "in is null");
        this.out = requireNonNull(out, "out is null");
    }

    /** Replaces the request before it is answered (a protobuf body turned into JSON). */
    void rewriteRequest(HttpRequest rewritten) {
        this.request = requireNonNull(rewritten, "rewritten is null");
    }

    HttpRequest request() {
        return request;
    }

    boolean responded() {
        return responded;
    }

    /** True when the connection must not carry another request (upgraded or streamed to the end). */
    boolean connectionTaken() {
        return connectionTaken;
    }

    void respond(int status, String contentType, byte[] body) throws IOException {
        respond(status, contentType, body, Map.of());
    }

    void respond(int status, String contentType, byte[] body, Map<String, String> headers) throws IOException {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put("Content-Type", contentType);
        all.put("Content-Length", Integer.toString(body.length));
        all.put("Cache-Control", "no-cache, private");
        writeHead(status, all);
        out.write(body);
        out.flush();
    }

    /** Starts a chunked response (RFC 9112 §7.1); the caller writes chunks until it finishes. */
    ChunkedBody startChunked(int status, String contentType) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", contentType);
        headers.put("Transfer-Encoding", "chunked");
        headers.put("Cache-Control", "no-cache, private");
        // The connection ends with the stream (connectionTaken): RFC 9112 §9.6 has the server say
        // so, or a client pools it after the last chunk and its next request meets a closed socket.
        headers.put("Connection", "close");
        writeHead(status, headers);
        out.flush();
        connectionTaken = true;
        return new ChunkedBody(out);
    }

    /** Answers 101 and gives the raw connection to the caller. */
    RawConnection switchProtocols(Map<String, String> headers) throws IOException {
        writeHead(101, headers);
        out.flush();
        connectionTaken = true;
        return new RawConnection(in, out);
    }

    InputStream input() {
        return in;
    }

    private void writeHead(int status, Map<String, String> headers) throws IOException {
        if (responded) {
            throw new IllegalStateException("response already started");
        }
        responded = true;
        StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(' ')
                .append(REASONS.getOrDefault(status, "Status")).append("\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    /** A chunked body; every write is flushed at once so streamed events reach the client. */
    static final class ChunkedBody {
        private final OutputStream out;

        private ChunkedBody(OutputStream out) {
            this.out = out;
        }

        synchronized void write(byte[] data) throws IOException {
            if (data.length == 0) {
                return;
            }
            out.write((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(data);
            out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        synchronized void finish() throws IOException {
            out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }
    }

    /** The connection after a protocol switch: bytes both ways, nothing HTTP any more. */
    record RawConnection(InputStream in, OutputStream out) {
        RawConnection {
            requireNonNull(in, "in is null");
            requireNonNull(out, "out is null");
        }
    }
}
