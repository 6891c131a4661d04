package dev.klave.outbound;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Untrusted;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * An HTTPS GET to a URL named by someone outside Klave (an OAuth client's metadata document), sent
 * only to an address the {@link AddressPolicy} permits — checked for the connection itself.
 *
 * <p>The host is resolved once; every address it resolves to is checked, and any refused address
 * refuses the call before a connection is opened. The socket is then connected to one of those
 * checked {@code InetAddress}es (never to the name, which a second look-up could answer
 * differently: DNS rebinding), and TLS is layered over it for the URL's host name — SNI and
 * certificate verification (RFC 9110 §4.3.4, {@code HTTPS} endpoint identification) for the
 * name, the bytes to the checked address. The JDK's {@code HttpClient} cannot connect to one
 * address while verifying another name, hence this small HTTP/1.1 client: one {@code GET} with
 * {@code Connection: close}, read by {@link ResponseReader}.
 *
 * <p>Bounded as every call out (package note): one deadline from the look-up to the last byte —
 * a watchdog closes the socket when it passes, whatever the other side trickles — and a body
 * limit counted while reading. No redirect is followed: a 3xx is an answer like any other.
 */
public final class PinnedHttps {
    private static final int HTTPS_PORT = 443;

    private final SSLSocketFactory sockets;
    private final AddressPolicy policy;
    private final Resolver resolver;
    private final Duration deadline;
    private final long answerLimit;

    /**
     * @param tls what certificates must chain to (the JDK's default trust in production)
     * @param deadline how long one call may take, from the look-up to the last byte of the answer
     * @param answerLimit the most bytes an answer's body may have
     */
    public PinnedHttps(SSLContext tls, AddressPolicy policy, Resolver resolver, Duration deadline, long answerLimit) {
        this.sockets = requireNonNull(tls, "tls is null").getSocketFactory();
        this.policy = requireNonNull(policy, "policy is null");
        this.resolver = requireNonNull(resolver, "resolver is null");
        this.deadline = requireNonNull(deadline, "deadline is null");
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("deadline must be positive");
        }
        if (answerLimit <= 0) {
            throw new IllegalArgumentException("answerLimit must be positive");
        }
        this.answerLimit = answerLimit;
    }

    public Duration deadline() {
        return deadline;
    }

    /**
     * GETs {@code url} (absolute, {@code https}, with a host, ASCII: the caller checked it) and
     * returns the answer; the body only for a 2xx.
     */
    public Answer get(URI url, String accept) throws OutboundFailure {
        return send(url, request(url, "GET", accept, Map.of()).getBytes(StandardCharsets.US_ASCII), null);
    }

    /**
     * POSTs {@code body} to {@code url} (a notification to a webhook, issue 41) under the same rules
     * as {@link #get}: the checked address, the deadline, the answer's limit, no redirect.
     *
     * @param headers more request headers: names and values the caller made, never outside text
     */
    public Answer post(URI url, String contentType, byte[] body, Map<String, String> headers) throws OutboundFailure {
        requireNonNull(body, "body is null");
        Map<String, String> all = new java.util.LinkedHashMap<>(headers);
        all.put("Content-Type", contentType);
        all.put("Content-Length", String.valueOf(body.length));
        return send(url, request(url, "POST", "*/*", all).getBytes(StandardCharsets.US_ASCII), body);
    }

    /**
     * Whether {@code url} could be called now, by the very rule a call applies first — its form,
     * the look-up (within the deadline) and the policy on every address — without connecting: a
     * caller that stores a URL to call later (a webhook) refuses it at once instead of at the first
     * call. The call itself checks again, for its own connection.
     *
     * @throws OutboundFailure {@code ADDRESS_REFUSED} for an address the policy does not permit or
     *     a host written as an ambiguous IPv4 address; {@code FAILED} or {@code DEADLINE} when the
     *     name does not resolve
     */
    public void check(URI url) throws OutboundFailure {
        permitted(url, System.nanoTime() + deadline.toNanos());
    }

    /** The addresses {@code url}'s host resolves to, every one permitted; the rule of {@link #check}. */
    private List<InetAddress> permitted(URI url, long end) throws OutboundFailure {
        requireNonNull(url, "url is null");
        if (!"https".equals(url.getScheme()) || url.getHost() == null || url.getHost().endsWith(".")
                || url.getPort() == 0 || url.getPort() > 65535) {
            throw new IllegalArgumentException("not an absolute https URL with a host name and a port");
        }
        String host = bare(url.getHost());
        if (HostNames.ambiguousIpv4(host)) {
            // Read one way here and another by the rest of the world: refused, not reinterpreted.
            throw new OutboundFailure(OutboundFailure.Kind.ADDRESS_REFUSED, Untrusted.text(host)
                    + " is an IPv4 address in a form parsers read differently", null);
        }
        List<InetAddress> addresses = resolve(host, end);
        for (InetAddress address : addresses) {
            if (!policy.permits(address)) {
                throw new OutboundFailure(OutboundFailure.Kind.ADDRESS_REFUSED,
                        Untrusted.text(host) + " resolves to " + address.getHostAddress() + ", which is not permitted", null);
            }
        }
        return addresses;
    }

    private Answer send(URI url, byte[] head, byte[] body) throws OutboundFailure {
        long end = System.nanoTime() + deadline.toNanos();
        List<InetAddress> addresses = permitted(url, end);
        String host = bare(url.getHost());
        int port = url.getPort() == -1 ? HTTPS_PORT : url.getPort();
        // The watchdog closes whichever socket is being connected or read when the deadline passes.
        AtomicReference<Socket> current = new AtomicReference<>();
        try (Watchdog watchdog = Watchdog.closingAt(() -> closeQuietly(current.get()), end)) {
            try (Socket socket = connect(addresses, port, end, current, watchdog)) {
                return exchange(socket, host, port, head, body);
            } catch (OutboundFailure failure) {
                throw failure;
            } catch (IOException e) {
                if (watchdog.fired()) {
                    throw deadlinePassed(e);
                }
                throw new OutboundFailure(OutboundFailure.Kind.FAILED, Untrusted.failure(e), e);
            }
        }
    }

    private List<InetAddress> resolve(String host, long end) throws OutboundFailure {
        if (isLiteral(host)) {
            return List.of(InetAddress.ofLiteral(host));
        }
        // The look-up cannot be interrupted; it runs on its own virtual thread, waited for until the deadline.
        FutureTask<List<InetAddress>> lookup = new FutureTask<>(() -> resolver.resolve(host));
        Thread.ofVirtual().name("klave-outbound-lookup").start(lookup);
        try {
            List<InetAddress> addresses = lookup.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (addresses.isEmpty()) {
                throw new UnknownHostException(host);
            }
            return List.copyOf(addresses);
        } catch (TimeoutException e) {
            lookup.cancel(true);
            throw deadlinePassed(e);
        } catch (InterruptedException e) {
            lookup.cancel(true);
            Thread.currentThread().interrupt();
            throw new OutboundFailure(OutboundFailure.Kind.FAILED, "interrupted", e);
        } catch (ExecutionException | UnknownHostException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new OutboundFailure(OutboundFailure.Kind.FAILED, Untrusted.failure(cause), cause);
        }
    }

    /**
     * A socket connected to one of the checked addresses, tried in turn, each attempt within what
     * is left of the deadline (a failed attempt closes its socket, so each has its own).
     */
    private static Socket connect(List<InetAddress> addresses, int port, long end, AtomicReference<Socket> current,
            Watchdog watchdog) throws IOException {
        IOException last = new SocketException("no address");
        for (InetAddress address : addresses) {
            Socket socket = new Socket();
            current.set(socket);
            if (watchdog.fired()) {
                socket.close();
                throw new SocketException("deadline passed");
            }
            int left = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()));
            try {
                socket.connect(new InetSocketAddress(address, port), left);
                return socket;
            } catch (IOException e) {
                socket.close();
                last = e;
            }
        }
        throw last;
    }

    private static void closeQuietly(Socket socket) {
        if (socket == null) {
            return;
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing is all that was wanted.
        }
    }

    private Answer exchange(Socket socket, String host, int port, byte[] head, byte[] body) throws IOException {
        SSLSocket tls = (SSLSocket) sockets.createSocket(socket, host, port, true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (!isLiteral(host)) {
            parameters.setServerNames(List.of(serverName(host))); // RFC 6066 §3: names only, never literals
        }
        tls.setSSLParameters(parameters);
        tls.startHandshake();
        OutputStream out = tls.getOutputStream();
        out.write(head);
        if (body != null) {
            out.write(body);
        }
        out.flush();
        return ResponseReader.read(new BufferedInputStream(tls.getInputStream()), answerLimit);
    }

    private static SNIHostName serverName(String host) throws SSLException {
        try {
            return new SNIHostName(host);
        } catch (IllegalArgumentException e) {
            throw new SSLException("not a server name: " + Untrusted.text(host), e);
        }
    }

    private static String request(URI url, String method, String accept, Map<String, String> headers) {
        String target = url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        if (url.getRawQuery() != null) {
            target += "?" + url.getRawQuery();
        }
        String authority = url.getHost() + (url.getPort() == -1 ? "" : ":" + url.getPort());
        StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\n"
                + "Host: " + authority + "\r\n"
                + "Accept: " + accept + "\r\n"
                + "User-Agent: klave\r\n");
        headers.forEach((name, value) -> {
            if (!name.matches("[A-Za-z0-9-]+") || value.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
                throw new IllegalArgumentException("a request header is a token and printable ASCII");
            }
            head.append(name).append(": ").append(value).append("\r\n");
        });
        return head.append("Connection: close\r\n\r\n").toString();
    }

    private OutboundFailure deadlinePassed(Exception cause) {
        long millis = deadline.toMillis();
        String within = millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
        return new OutboundFailure(OutboundFailure.Kind.DEADLINE, "no complete answer within " + within, cause);
    }

    /** The host without the brackets of an IPv6 literal (RFC 3986 §3.2.2). */
    private static String bare(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static boolean isLiteral(String host) {
        try {
            InetAddress.ofLiteral(host);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
