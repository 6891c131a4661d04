package dev.klave.proxy;

import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the cluster's answer to an upgrade request on a raw socket. A 101 is complete with its
 * head: the socket is then held for the relay. Any other answer (a refusal: 403, 404, 400) is
 * complete with its whole body, by Content-Length, chunks, or the cluster closing (RFC 9112 §6.3):
 * its body may come in later reads than its head, which is how OpenSSL's TLS hands it over.
 */
final class UpgradeAnswers {
    /** Limits of what Klave keeps in memory for one answer (spec: refusals are short Status objects). */
    static final int MAX_HEAD = 64 * 1024;
    static final int MAX_REFUSAL = 1024 * 1024;

    private final NetSocket socket;
    private final Promise<Upgrades.Answer> answer;
    private final Buffer received = Buffer.buffer();
    private Upgrades.Answer head;
    private int headLength;

    private UpgradeAnswers(NetSocket socket, Promise<Upgrades.Answer> answer) {
        this.socket = socket;
        this.answer = answer;
    }

    /** Starts reading; {@code answer} completes with the answer or fails. */
    static void read(NetSocket socket, Promise<Upgrades.Answer> answer) {
        UpgradeAnswers reader = new UpgradeAnswers(socket, answer);
        socket.handler(reader::received);
        socket.exceptionHandler(answer::tryFail);
        socket.closeHandler(ignored -> reader.closed());
    }

    private void received(Buffer chunk) {
        if (answer.future().isComplete()) {
            return;
        }
        received.appendBuffer(chunk);
        if (head == null) {
            int end = indexOfHeadEnd(received);
            if (end < 0) {
                if (received.length() > MAX_HEAD) {
                    tooLarge("answer head too large");
                }
                return;
            }
            head = parse(received, end);
            headLength = end + 4;
            if (head.status() == 101) {
                // Held until the relay takes over: the channel stops reading, so that at most
                // what Vert.x has already read waits in its queue (see Relays.bytes).
                Relays.Reading.of(socket).stop();
                socket.pause();
                socket.handler(null);
                answer.complete(head);
                return;
            }
        }
        Buffer body = received.getBuffer(headLength, received.length());
        Optional<Buffer> whole = whole(head.headers(), body, false);
        if (whole.isPresent()) {
            answer.complete(withBody(whole.get()));
        } else if (body.length() > MAX_REFUSAL) {
            tooLarge("answer too large");
        }
    }

    private void closed() {
        if (head != null && !answer.future().isComplete()) {
            // Close-delimited (or cut short): what came is the body.
            Buffer body = received.getBuffer(headLength, received.length());
            answer.tryComplete(withBody(whole(head.headers(), body, true).orElse(body)));
        }
        answer.tryFail("the cluster closed the connection before answering");
    }

    private Upgrades.Answer withBody(Buffer body) {
        return new Upgrades.Answer(socket, head.status(), head.statusLine(), head.headers(), body);
    }

    private void tooLarge(String reason) {
        answer.tryFail(reason);
        socket.close();
    }

    /**
     * The body once it is all here: by Content-Length, by the last chunk, or (when the cluster
     * has closed) as it came. Empty while more is to come.
     */
    static Optional<Buffer> whole(MultiMap headers, Buffer body, boolean closed) {
        String encoding = headers.get("transfer-encoding");
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            return dechunk(body);
        }
        String length = headers.get("content-length");
        if (length != null) {
            try {
                int expected = Integer.parseInt(length.strip());
                return body.length() >= expected ? Optional.of(body.getBuffer(0, expected)) : Optional.empty();
            } catch (NumberFormatException e) {
                return closed ? Optional.of(body) : Optional.empty();
            }
        }
        return closed ? Optional.of(body) : Optional.empty();
    }

    /** The data of a chunked body (RFC 9112 §7.1), once its last chunk has come. */
    static Optional<Buffer> dechunk(Buffer raw) {
        Buffer data = Buffer.buffer();
        int at = 0;
        while (true) {
            int lineEnd = indexOf(raw, at);
            if (lineEnd < 0) {
                return Optional.empty();
            }
            int size;
            try {
                size = Integer.parseInt(raw.getString(at, lineEnd, "ISO-8859-1").split(";", 2)[0].strip(), 16);
            } catch (NumberFormatException e) {
                return Optional.of(raw);
            }
            if (size == 0) {
                return Optional.of(data);
            }
            int start = lineEnd + 2;
            if (raw.length() < start + size + 2) {
                return Optional.empty();
            }
            data.appendBuffer(raw.getBuffer(start, start + size));
            at = start + size + 2;
        }
    }

    private static int indexOf(Buffer buffer, int from) {
        for (int i = from; i + 1 < buffer.length(); i++) {
            if (buffer.getByte(i) == '\r' && buffer.getByte(i + 1) == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int indexOfHeadEnd(Buffer buffer) {
        for (int i = 0; i + 3 < buffer.length(); i++) {
            if (buffer.getByte(i) == '\r' && buffer.getByte(i + 1) == '\n' && buffer.getByte(i + 2) == '\r'
                    && buffer.getByte(i + 3) == '\n') {
                return i;
            }
        }
        return -1;
    }

    private Upgrades.Answer parse(Buffer buffer, int end) {
        String[] lines = buffer.getString(0, end, "ISO-8859-1").split("\r\n");
        String statusLine = lines[0];
        String[] parts = statusLine.split(" ", 3);
        int status = parts.length > 1 && parts[1].matches("[1-5][0-9][0-9]") ? Integer.parseInt(parts[1]) : 502;
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.add(lines[i].substring(0, colon).strip(), lines[i].substring(colon + 1).strip());
            }
        }
        return new Upgrades.Answer(socket, status, statusLine, headers, buffer.getBuffer(end + 4, buffer.length()));
    }
}
