package dev.klave.simulator;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** Reads HTTP/1.1 requests (RFC 9112) from a connection: head, then a Content-Length or chunked body. */
final class HttpRequestReader {
    private static final int MAX_LINE = 64 * 1024;
    private static final int MAX_BODY = 16 * 1024 * 1024;

    private final InputStream in;
    private final AtomicInteger receiving;
    private final RequestLog heads;

    /**
     * @param receiving counts the requests whose head has arrived and whose body is still being read
     * @param heads where each request goes as soon as its head has arrived, body read or not
     */
    HttpRequestReader(InputStream in, AtomicInteger receiving, RequestLog heads) {
        this.in = in;
        this.receiving = receiving;
        this.heads = heads;
    }

    /** The next request, or empty when the client closed the connection between requests. */
    Optional<HttpRequest> next() throws IOException {
        String requestLine = readLine(true);
        if (requestLine == null) {
            return Optional.empty();
        }
        while (requestLine.isEmpty()) {
            requestLine = readLine(true);
            if (requestLine == null) {
                return Optional.empty();
            }
        }
        String[] parts = requestLine.split(" ");
        if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
            throw new IOException("malformed request line: " + requestLine);
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String line = readLine(false); !line.isEmpty(); line = readLine(false)) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("malformed header line");
            }
            headers.computeIfAbsent(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), key -> new ArrayList<>())
                    .add(line.substring(colon + 1).strip());
        }
        heads.add(RecordedRequest.of(HttpRequest.of(parts[0], parts[1], headers, new byte[0])));
        receiving.incrementAndGet();
        try {
            return Optional.of(HttpRequest.of(parts[0], parts[1], headers, readBody(headers)));
        } finally {
            receiving.decrementAndGet();
        }
    }

    private byte[] readBody(Map<String, List<String>> headers) throws IOException {
        List<String> encoding = headers.getOrDefault("transfer-encoding", List.of());
        if (!encoding.isEmpty() && encoding.getLast().toLowerCase(Locale.ROOT).contains("chunked")) {
            return readChunked();
        }
        List<String> length = headers.getOrDefault("content-length", List.of());
        if (length.isEmpty()) {
            return new byte[0];
        }
        int size = Integer.parseInt(length.getFirst().strip());
        if (size < 0 || size > MAX_BODY) {
            throw new IOException("request body too large");
        }
        return in.readNBytes(size);
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(false);
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).strip(), 16);
            if (size == 0) {
                while (!readLine(false).isEmpty()) {
                    // trailers are ignored
                }
                return body.toByteArray();
            }
            if (body.size() + size > MAX_BODY) {
                throw new IOException("request body too large");
            }
            body.write(in.readNBytes(size));
            readLine(false);
        }
    }

    private String readLine(boolean eofAllowed) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int next = in.read();
            if (next < 0) {
                if (eofAllowed && line.size() == 0) {
                    return null;
                }
                throw new EOFException("connection closed inside a request");
            }
            if (next == '\n') {
                byte[] bytes = line.toByteArray();
                int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
            }
            if (line.size() >= MAX_LINE) {
                throw new IOException("line too long");
            }
            line.write(next);
        }
    }
}
