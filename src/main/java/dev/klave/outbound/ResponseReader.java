package dev.klave.outbound;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one HTTP/1.1 answer (RFC 9112) from a connection the request asked to close, strictly and
 * within limits: the head and the chunk lines at most {@link #HEAD_LIMIT} bytes, the body at most the caller's limit,
 * counted as it arrives, so no answer makes Klave hold more than that. The body is framed by
 * {@code Content-Length}, by {@code chunked}, or by the end of the connection (RFC 9112 §6.3);
 * anything a front end could read two ways — both framings, two lengths, another coding, a folded
 * header — is refused, as the edge refuses it in requests.
 */
final class ResponseReader {
    static final int HEAD_LIMIT = 32 * 1024;
    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.[01] ([1-5][0-9][0-9])(?: .*)?");
    private static final Pattern FIELD = Pattern.compile("([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \\t]*(.*?)[ \\t]*");
    private static final Pattern CHUNK_SIZE = Pattern.compile("([0-9A-Fa-f]{1,8})[ \\t]*(?:;.*)?");

    private final InputStream in;
    private final long limit;
    private int headRead;

    private ResponseReader(InputStream in, long limit) {
        this.in = in;
        this.limit = limit;
    }

    /**
     * The answer; the body only for a 2xx status (any other answer is judged by its status alone,
     * and its body is never read).
     */
    static Answer read(InputStream in, long limit) throws IOException {
        return new ResponseReader(in, limit).answer();
    }

    private Answer answer() throws IOException {
        Matcher status = STATUS_LINE.matcher(line());
        if (!status.matches()) {
            throw failed("not an HTTP/1.1 status line");
        }
        int code = Integer.parseInt(status.group(1));
        Map<String, List<String>> fields = fields();
        HttpHeaders headers = HttpHeaders.of(fields, (name, value) -> true);
        if (code / 100 != 2 || code == 204) {
            return new Answer(code, headers, new byte[0]);
        }
        return new Answer(code, headers, body(headers));
    }

    private Map<String, List<String>> fields() throws IOException {
        Map<String, List<String>> fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String line = line(); !line.isEmpty(); line = line()) {
            Matcher field = FIELD.matcher(line);
            if (!field.matches()) {
                throw failed("malformed header line"); // obs-fold included (RFC 9112 §5.2)
            }
            fields.computeIfAbsent(field.group(1), name -> new ArrayList<>()).add(field.group(2));
        }
        return fields;
    }

    private byte[] body(HttpHeaders headers) throws IOException {
        List<String> codings = headers.allValues("Transfer-Encoding");
        List<String> lengths = headers.allValues("Content-Length");
        if (!codings.isEmpty()) {
            if (!lengths.isEmpty()) {
                throw failed("both Transfer-Encoding and Content-Length"); // RFC 9112 §6.3 (3)
            }
            if (codings.size() != 1 || !codings.getFirst().toLowerCase(Locale.ROOT).equals("chunked")) {
                throw failed("a transfer coding other than chunked");
            }
            return chunked();
        }
        if (lengths.isEmpty()) {
            return untilClosed();
        }
        if (lengths.stream().distinct().count() != 1 || !lengths.getFirst().matches("[0-9]{1,18}")) {
            throw failed("unreadable Content-Length"); // RFC 9112 §6.3 (5)
        }
        long length = Long.parseLong(lengths.getFirst());
        if (length > limit) {
            throw tooLarge();
        }
        return exactly((int) length);
    }

    /** RFC 9112 §7.1; what follows the last chunk (trailers) is not read: the connection closes. */
    private byte[] chunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            Matcher size = CHUNK_SIZE.matcher(line());
            if (!size.matches()) {
                throw failed("malformed chunk size line");
            }
            long chunk = Long.parseLong(size.group(1), 16);
            if (chunk == 0) {
                return body.toByteArray();
            }
            if (body.size() + chunk > limit) {
                throw tooLarge();
            }
            body.writeBytes(exactly((int) chunk));
            if (!line().isEmpty()) {
                throw failed("chunk not followed by CRLF");
            }
        }
    }

    private byte[] untilClosed() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int read = in.read(buffer); read != -1; read = in.read(buffer)) {
            if (body.size() + read > limit) {
                throw tooLarge();
            }
            body.write(buffer, 0, read);
        }
        return body.toByteArray();
    }

    private byte[] exactly(int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length != length) {
            throw failed("answer cut short");
        }
        return bytes;
    }

    /** One line of the head or of the chunk framing, without its CRLF; a bare LF is refused. */
    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            int next = in.read();
            if (next == -1) {
                throw failed("answer cut short");
            }
            if (++headRead > HEAD_LIMIT) {
                throw tooLarge();
            }
            if (next == '\r') {
                if (in.read() != '\n') {
                    throw failed("CR not followed by LF");
                }
                return line.toString();
            }
            if ((next < 0x20 && next != '\t') || next > 0x7e) {
                throw failed("a byte not allowed in the head");
            }
            line.append((char) next);
        }
    }

    private OutboundFailure tooLarge() {
        return new OutboundFailure(OutboundFailure.Kind.TOO_LARGE, "answer larger than " + limit + " bytes", null);
    }

    private static OutboundFailure failed(String why) {
        return new OutboundFailure(OutboundFailure.Kind.FAILED, "malformed answer: " + why, null);
    }
}
