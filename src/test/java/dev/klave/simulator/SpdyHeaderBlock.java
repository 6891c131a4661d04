package dev.klave.simulator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * SPDY/3 name/value header blocks (§2.6.10), zlib-compressed with the protocol's fixed dictionary.
 * Each direction of a connection is one zlib stream that lives as long as the connection, flushed
 * (SYNC_FLUSH) after every block, so one instance compresses or decompresses one direction.
 */
final class SpdyHeaderBlock {
    /** The SPDY/3 dictionary (§2.6.10.1): length-prefixed common header words, then common values. */
    static final byte[] DICTIONARY = dictionary();

    private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION);
    private final Inflater inflater = new Inflater();

    SpdyHeaderBlock() {
        deflater.setDictionary(DICTIONARY);
    }

    byte[] compress(Map<String, List<String>> headers) {
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(plain)) {
            out.writeInt(headers.size());
            for (Map.Entry<String, List<String>> header : headers.entrySet()) {
                byte[] name = header.getKey().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
                byte[] value = String.join("\0", header.getValue()).getBytes(StandardCharsets.UTF_8);
                out.writeInt(name.length);
                out.write(name);
                out.writeInt(value.length);
                out.write(value);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        deflater.setInput(plain.toByteArray());
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        byte[] buffer = new byte[1024];
        int count;
        do {
            count = deflater.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH);
            compressed.write(buffer, 0, count);
        } while (count == buffer.length);
        return compressed.toByteArray();
    }

    Map<String, List<String>> decompress(byte[] block) throws IOException {
        inflater.setInput(block);
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        byte[] buffer = new byte[1024];
        try {
            while (true) {
                int count = inflater.inflate(buffer);
                if (count == 0 && inflater.needsDictionary()) {
                    inflater.setDictionary(DICTIONARY);
                    continue;
                }
                plain.write(buffer, 0, count);
                if (count == 0 && inflater.needsInput()) {
                    break;
                }
            }
        } catch (DataFormatException e) {
            throw new IOException("corrupt SPDY header block", e);
        }
        return parse(plain.toByteArray());
    }

    private static Map<String, List<String>> parse(byte[] plain) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(plain));
        int pairs = in.readInt();
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 0; i < pairs; i++) {
            String name = new String(in.readNBytes(in.readInt()), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
            String value = new String(in.readNBytes(in.readInt()), StandardCharsets.UTF_8);
            headers.computeIfAbsent(name, key -> new ArrayList<>()).addAll(Arrays.asList(value.split("\0", -1)));
        }
        return headers;
    }

    private static byte[] dictionary() {
        List<String> words = List.of("options", "head", "post", "put", "delete", "trace", "accept", "accept-charset",
                "accept-encoding", "accept-language", "accept-ranges", "age", "allow", "authorization", "cache-control",
                "connection", "content-base", "content-encoding", "content-language", "content-length",
                "content-location", "content-md5", "content-range", "content-type", "date", "etag", "expect", "expires",
                "from", "host", "if-match", "if-modified-since", "if-none-match", "if-range", "if-unmodified-since",
                "last-modified", "location", "max-forwards", "pragma", "proxy-authenticate", "proxy-authorization",
                "range", "referer", "retry-after", "server", "te", "trailer", "transfer-encoding", "upgrade",
                "user-agent", "vary", "via", "warning", "www-authenticate", "method", "get", "status", "200 OK",
                "version", "HTTP/1.1", "url", "public", "set-cookie", "keep-alive", "origin");
        String tail = "100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505"
                + "203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request401 Unauthorized"
                + "403 Forbidden404 Not Found500 Internal Server Error501 Not Implemented503 Service Unavailable"
                + "Jan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMT"
                + "chunked,text/html,image/png,image/jpg,image/gif,application/xml,application/xhtml+xml,text/plain,"
                + "text/javascript,publicprivatemax-age=gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.";
        ByteBuffer dictionary = ByteBuffer.allocate(2048);
        for (String word : words) {
            byte[] bytes = word.getBytes(StandardCharsets.US_ASCII);
            dictionary.putInt(bytes.length);
            dictionary.put(bytes);
        }
        dictionary.put(tail.getBytes(StandardCharsets.US_ASCII));
        return Arrays.copyOf(dictionary.array(), dictionary.position());
    }
}
