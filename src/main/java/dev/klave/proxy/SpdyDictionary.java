package dev.klave.proxy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * SPDY/3's zlib dictionary for header blocks (draft-mbelshe-httpbis-spdy-00 §2.6.10.1): each common
 * header word with its length before it, then common values run together. Every header block of a
 * SPDY/3 connection is compressed against it; Netty keeps its copy private.
 */
public final class SpdyDictionary {
    private static final byte[] BYTES = build();

    private SpdyDictionary() {}

    /** A copy of the dictionary. */
    public static byte[] bytes() {
        return BYTES.clone();
    }

    private static byte[] build() {
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
