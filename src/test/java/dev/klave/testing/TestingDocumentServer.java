package dev.klave.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * An HTTPS server on 127.0.0.1 that publishes documents as raw HTTP/1.1 bytes — well-formed,
 * chunked, endless, silent — for tests of calls out of Klave. Its certificate names only the host
 * names it was started with (no address), so a client reaches it through a resolver that maps
 * those names to loopback. It counts every connection it accepts, so a test can show that a
 * refused call never connected. With {@code tls = false} it accepts and never speaks TLS.
 */
public final class TestingDocumentServer implements AutoCloseable {
    /** Writes one answer; the request has been read. */
    @FunctionalInterface
    public interface Responder {
        void respond(OutputStream out) throws IOException;
    }

    private final ServerSocket listener;
    private final SSLContext clientTls;
    private final Map<String, Responder> answers = new ConcurrentHashMap<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final List<String> requestLines = new CopyOnWriteArrayList<>();
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private final CountDownLatch closed = new CountDownLatch(1);

    private TestingDocumentServer(ServerSocket listener, SSLContext clientTls) {
        this.listener = listener;
        this.clientTls = clientTls;
        Thread.ofVirtual().name("testing-document-server").start(this::accept);
    }

    /** A server whose certificate is for {@code names} (DNS names). */
    public static TestingDocumentServer start(String... names) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(256);
            KeyPair keys = generator.generateKeyPair();
            X509Certificate certificate = TestingTls.selfSignedFor("document-server", keys, "SHA256withECDSA", names);
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("server", keys.getPrivate(), new char[0], new X509Certificate[] {certificate});
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(store, new char[0]);
            SSLContext serverTls = SSLContext.getInstance("TLS");
            serverTls.init(keyManagers.getKeyManagers(), null, null);
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry("server", certificate);
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext clientTls = SSLContext.getInstance("TLS");
            clientTls.init(null, trust.getTrustManagers(), null);
            ServerSocket listener = serverTls.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
            return new TestingDocumentServer(listener, clientTls);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A plain TCP listener that accepts connections and never sends a byte (no TLS handshake). */
    public static TestingDocumentServer mute() {
        try {
            return new TestingDocumentServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** A context that trusts this server's certificate, and nothing else. */
    public SSLContext clientTls() {
        return clientTls;
    }

    public void answer(String path, Responder responder) {
        answers.put(path, responder);
    }

    /** Connections accepted so far, whether or not a request came over them. */
    public int connections() {
        return connections.get();
    }

    /** The request lines received, in order ({@code GET /client.json HTTP/1.1}). */
    public List<String> requestLines() {
        return List.copyOf(requestLines);
    }

    /** The head of every request received, in order. */
    public List<String> heads() {
        return List.copyOf(heads);
    }

    /** An answer of 200 with the body as {@code type}, its length declared. */
    public static Responder document(String type, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return out -> {
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + type + "\r\nContent-Length: " + bytes.length
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
        };
    }

    /** Exactly these bytes, then the connection closes. */
    public static Responder raw(String answer) {
        return out -> out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Waits, sending nothing, until the server closes. */
    public Responder silent() {
        return out -> {
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket connection = listener.accept();
                connections.incrementAndGet();
                Thread.ofVirtual().name("testing-document-connection").start(() -> serve(connection));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            if (clientTls == null) {
                closed.await();
                return;
            }
            String head = head(connection.getInputStream());
            heads.add(head);
            String requestLine = head.lines().findFirst().orElse("");
            requestLines.add(requestLine);
            String[] parts = requestLine.split(" ");
            Responder responder = parts.length == 3 ? answers.get(parts[1]) : null;
            OutputStream out = connection.getOutputStream();
            if (responder == null) {
                raw("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n").respond(out);
            } else {
                responder.respond(out);
            }
            out.flush();
        } catch (IOException e) {
            // The client left (or refused the certificate): nothing more to serve.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (head.size() < 16 * 1024) {
            int next = in.read();
            if (next == -1) {
                break;
            }
            head.write(next);
            String text = head.toString(StandardCharsets.ISO_8859_1);
            if (text.endsWith("\r\n\r\n")) {
                break;
            }
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        closed.countDown();
        try {
            listener.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
