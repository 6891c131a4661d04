package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A hand-written HTTP/1.1 server over TLS: one virtual thread per connection, blocking I/O. The
 * listener is a plain socket and TLS is layered per connection, so a fault can swap the serving
 * certificate or close the port and later reopen the same one.
 */
final class SimulatorHttpServer implements AutoCloseable {
    interface Handler {
        void handle(HttpExchange exchange) throws IOException;
    }

    private volatile Handler handler;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private volatile boolean silent;
    private final AtomicInteger receiving = new AtomicInteger();
    private final RequestLog heads = new RequestLog();
    private final Object listenerLock = new Object();
    private volatile SSLContext tls;
    private ServerSocket listener;
    private int port;
    private volatile boolean closed;

    SimulatorHttpServer(SSLContext tls) {
        this.tls = requireNonNull(tls, "tls is null");
    }

    /** Set once, before {@link #start()}: the handler needs the server for its faults. */
    void handler(Handler handler) {
        this.handler = requireNonNull(handler, "handler is null");
    }

    void start() {
        open(0);
    }

    int port() {
        return port;
    }

    /** Closes the port and every open connection: new connections are refused. */
    void down() {
        synchronized (listenerLock) {
            closeQuietly(listener);
            listener = null;
        }
        dropConnections();
    }

    /** Listens again on the same port after {@link #down()}. */
    void up() {
        synchronized (listenerLock) {
            if (listener == null && !closed) {
                open(port);
            }
        }
    }

    /** Serves another certificate from the next handshake on; open connections are dropped. */
    void useTls(SSLContext context) {
        this.tls = requireNonNull(context, "context is null");
        dropConnections();
    }

    int openConnections() {
        return connections.size();
    }

    int requestsReceiving() {
        return receiving.get();
    }

    List<RecordedRequest> heads() {
        return heads.all();
    }

    @Override
    public void close() {
        closed = true;
        down();
    }

    /** New connections are accepted and left unanswered while on. */
    void silent(boolean on) {
        silent = on;
    }

    private void open(int wantedPort) {
        synchronized (listenerLock) {
            try {
                ServerSocket socket = new ServerSocket();
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), wantedPort), 200);
                listener = socket;
                port = socket.getLocalPort();
                Thread.ofVirtual().name("simulator-accept-" + port).start(() -> accept(socket));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot listen on port " + wantedPort, e);
            }
        }
    }

    private void accept(ServerSocket socket) {
        while (!socket.isClosed()) {
            try {
                Socket plain = socket.accept();
                connections.add(plain);
                if (socket.isClosed()) {
                    // down() closed the listener after this accept and may have dropped the
                    // connections before this one was added: drop it here, as down() promises.
                    connections.remove(plain);
                    closeQuietly(plain);
                    return;
                }
                if (silent) {
                    // Held open and never read, until the test or close() drops it.
                    continue;
                }
                Thread.ofVirtual().name("simulator-connection").start(() -> serve(plain));
            } catch (IOException closedListener) {
                return;
            }
        }
    }

    private void serve(Socket plain) {
        try (plain) {
            plain.setTcpNoDelay(true);
            SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(plain, null, plain.getPort(), true);
            socket.setUseClientMode(false);
            SSLParameters parameters = socket.getSSLParameters();
            // HTTP/1.1 only: upgrades (SPDY, WebSocket) do not exist in HTTP/2.
            parameters.setApplicationProtocols(new String[] {"http/1.1"});
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            InputStream in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
            HttpRequestReader reader = new HttpRequestReader(in, receiving, heads);
            while (!closed) {
                Optional<HttpRequest> request = reader.next();
                if (request.isEmpty()) {
                    return;
                }
                HttpExchange exchange = new HttpExchange(request.get(), in, out);
                handler.handle(exchange);
                if (exchange.connectionTaken() || !exchange.responded()
                        || request.get().header("connection").map(value -> value.equalsIgnoreCase("close")).orElse(false)) {
                    return;
                }
            }
        } catch (IOException | RuntimeException endOfConnection) {
            // A client that goes away, a failed handshake (wrong CA on the client side) or a
            // dropped connection ends only this connection.
        } finally {
            connections.remove(plain);
        }
    }

    private void dropConnections() {
        for (Socket socket : connections) {
            closeQuietly(socket);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing is best effort
        }
    }
}
