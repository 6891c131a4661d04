package bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A minimal HTTP/1.1 keep-alive client over one socket: enough to send GETs and read answers with
 * Content-Length or chunked bodies. Hand-written so the load generator costs little CPU and
 * measures the proxy, not a client library.
 */
final class HttpConnection implements AutoCloseable {
    private final URI base;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    HttpConnection(URI base) {
        this.base = base;
    }

    /** The status of a GET of {@code pathAndQuery} under the base URI; the body is read and dropped. */
    int get(String pathAndQuery, String authorization) throws IOException {
        if (socket == null) {
            open();
        }
        try {
            out.write(head("GET", pathAndQuery, authorization, "").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            Head answer = Head.read(in);
            skipBody(answer);
            if (answer.closes()) {
                close();
            }
            return answer.status();
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    String head(String method, String pathAndQuery, String authorization, String extraHeaders) {
        int port = base.getPort();
        return method + " " + (base.getRawPath() == null ? "" : base.getRawPath()) + pathAndQuery + " HTTP/1.1\r\n"
                + "Host: " + base.getHost() + ":" + port + "\r\n"
                + (authorization.isEmpty() ? "" : "Authorization: " + authorization + "\r\n")
                + "Accept: application/json\r\n" + extraHeaders + "\r\n";
    }

    void open() throws IOException {
        socket = Tls.connect(base, 5_000);
        // Nothing the harness does waits 30 s for a byte, except an idle watch (which lifts it).
        socket.setSoTimeout(30_000);
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        out = socket.getOutputStream();
    }

    InputStream in() {
        return in;
    }

    OutputStream out() {
        return out;
    }

    Socket socket() {
        return socket;
    }

    private void skipBody(Head answer) throws IOException {
        if (answer.chunked()) {
            while (true) {
                int size = Integer.parseInt(Head.line(in).split(";")[0].strip(), 16);
                skip(size);
                Head.line(in);
                if (size == 0) {
                    return;
                }
            }
        }
        skip(answer.contentLength());
    }

    private void skip(long count) throws IOException {
        long left = count;
        while (left > 0) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new IOException("connection closed inside a body");
                }
                skipped = 1;
            }
            left -= skipped;
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Closing anyway.
            }
        }
        socket = null;
    }

    /** The status line and the headers the client acts on. */
    record Head(int status, long contentLength, boolean chunked, boolean closes) {
        static Head read(InputStream in) throws IOException {
            String status = line(in);
            if (status.isEmpty()) {
                status = line(in);
            }
            String[] parts = status.split(" ", 3);
            if (parts.length < 2) {
                throw new IOException("bad status line: " + status);
            }
            long length = 0;
            boolean chunked = false;
            boolean closes = false;
            for (String header = line(in); !header.isEmpty(); header = line(in)) {
                String lower = header.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(lower.substring(15).strip());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                } else if (lower.startsWith("connection:") && lower.contains("close")) {
                    closes = true;
                }
            }
            return new Head(Integer.parseInt(parts[1]), length, chunked, closes);
        }

        static String line(InputStream in) throws IOException {
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        }
    }
}
