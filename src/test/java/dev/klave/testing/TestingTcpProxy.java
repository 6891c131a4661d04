package dev.klave.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP relay in front of a real server, for faults a real server will not produce on
 * demand: {@link #freeze()} keeps every connection open but stops carrying bytes, like a peer that
 * hangs; {@link #cutOff()} resets every connection it carries and each new one, like a firewall
 * or a failed-over database host, until {@link #reconnect()}.
 */
public final class TestingTcpProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean frozen;
    private volatile boolean cutOff;

    public TestingTcpProxy(int targetPort) {
        this.targetPort = targetPort;
        try {
            this.listener = new ServerSocket(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread.ofVirtual().name("tcp-proxy-accept").start(this::accept);
    }

    public int port() {
        return listener.getLocalPort();
    }

    public void freeze() {
        frozen = true;
    }

    /**
     * From now on, resets (TCP RST, not a clean close) every connection carried so far and every
     * new one as soon as it is accepted: the server is never reached, so each attempt fails at
     * once rather than by a time-out.
     */
    public synchronized void cutOff() {
        cutOff = true;
        for (Socket socket : sockets) {
            reset(socket);
        }
        sockets.clear();
    }

    /** New connections are carried to the server again. */
    public void reconnect() {
        cutOff = false;
    }

    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
            socket.close();
        } catch (IOException alreadyGone) {
            // Closed by its other side first: nothing left to reset.
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = cutOff ? null : new Socket("127.0.0.1", targetPort);
                // Checked again with the list held: a connection accepted while cutOff() runs is
                // reset too, never carried on.
                synchronized (this) {
                    if (cutOff) {
                        reset(client);
                        if (server != null) {
                            reset(server);
                        }
                        continue;
                    }
                    sockets.add(client);
                    sockets.add(server);
                }
                Thread.ofVirtual().start(() -> relay(client, server));
                Thread.ofVirtual().start(() -> relay(server, client));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void relay(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int read; (read = in.read(buffer)) >= 0; ) {
                while (frozen) {
                    Thread.sleep(50); // a hung peer carries nothing while frozen (there is no thaw)
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException | InterruptedException ended) {
            // One side went away; the other follows when closed.
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
            for (Socket socket : sockets) {
                socket.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
