package dev.klave.http;

import dev.klave.messages.Message;
import dev.klave.messages.Untrusted;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The framing rules of RFC 9112 that Netty's decoder leaves lenient, checked on each request's
 * head before its body is read. A front end that frames a request differently from us would let a
 * client's leftover bytes become the next client's request (request smuggling, RFC 9112 §11.2), so
 * every ambiguity is refused and the connection closed:
 *
 * <ul>
 *   <li>only HTTP/1.0 and HTTP/1.1 (HTTP/2 only through ALPN, never as text: RFC 9113 §3);
 *   <li>exactly one {@code Host} in HTTP/1.1 (§3.2);
 *   <li>no header line continued on the next (obs-fold, §5.2);
 *   <li>{@code Transfer-Encoding} never with {@code Content-Length}, never in HTTP/1.0, and with
 *       {@code chunked} last and once (§6.1, §6.3: 400); any other coding is not implemented (501).
 * </ul>
 *
 * Netty already refuses a malformed or repeated {@code Content-Length} and malformed header names.
 */
final class RequestFraming {
    private static final String CHUNKED = "chunked";

    private RequestFraming() {}

    /** HTTP/1.0 and HTTP/1.1. */
    static boolean supported(HttpVersion version) {
        return version.protocolName().equals("HTTP") && version.majorVersion() == 1 && version.minorVersion() <= 1;
    }

    /**
     * @param unsupportedVersion the version the request line named when it is not one of {@link #supported}
     * @throws MalformedRequest naming the first rule the request breaks
     */
    static void check(HttpRequest request, Optional<String> unsupportedVersion, boolean folded) {
        if (unsupportedVersion.isPresent()) {
            throw new MalformedRequest(Message.HTTP_VERSION_UNSUPPORTED, printable(unsupportedVersion.get()));
        }
        HttpVersion version = request.protocolVersion();
        if (folded) {
            throw new MalformedRequest(Message.HEADER_FOLDED);
        }
        List<String> hosts = request.headers().getAll(HttpHeaderNames.HOST);
        if (hosts.size() > 1) {
            throw new MalformedRequest(Message.HOST_REPEATED);
        }
        if (hosts.isEmpty() && version.minorVersion() == 1) {
            throw new MalformedRequest(Message.HOST_MISSING);
        }
        List<String> encodings = request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (encodings.isEmpty()) {
            return;
        }
        if (request.headers().contains(HttpHeaderNames.CONTENT_LENGTH)) {
            throw new MalformedRequest(Message.FRAMING_LENGTH_AND_CHUNKED);
        }
        if (version.minorVersion() == 0) {
            throw new MalformedRequest(Message.FRAMING_CHUNKED_IN_HTTP10);
        }
        List<String> codings = codings(encodings);
        int chunked = codings.indexOf(CHUNKED);
        if (chunked >= 0 && (chunked != codings.size() - 1 || codings.lastIndexOf(CHUNKED) != chunked)) {
            throw new MalformedRequest(Message.FRAMING_CHUNKED_NOT_LAST);
        }
        for (String coding : codings) {
            if (!coding.equals(CHUNKED)) {
                throw new MalformedRequest(Message.TRANSFER_CODING_UNSUPPORTED, printable(coding));
            }
        }
    }

    /** The codings of every {@code Transfer-Encoding} line, in order, lower case (RFC 9110 §5.6.1 lists). */
    private static List<String> codings(List<String> lines) {
        List<String> codings = new ArrayList<>();
        for (String line : lines) {
            for (String element : line.split(",", -1)) {
                codings.add(element.strip().toLowerCase(Locale.ROOT));
            }
        }
        return codings;
    }

    private static String printable(String value) {
        return Untrusted.text(value, 40);
    }
}
