package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.config.AddressGroups;
import dev.klave.config.ConnectionLimits;
import dev.klave.messages.Untrusted;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.Http1xServerConnection;
import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every new client connection goes through before its first byte is read: a cap on the
 * connections open from its address (its block, for IPv6: {@link AddressGroups}), the deadlines
 * of {@link ConnectionDeadlines}, and {@link StrictDecoding}. Each connection holds an open file,
 * and the process's limit of them is shared with health checks, the database and the clusters:
 * without these, 20,000 connections that sent nothing left every new client unanswered.
 *
 * <p>Trusted proxies are not counted: every client behind them arrives from their addresses, and
 * they limit their own clients (README, "Behind a reverse proxy").
 */
final class ConnectionGuard {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionGuard.class);
    /** At most one warning about refused connections in this long, so a flood cannot fill the log. */
    private static final long WARN_EVERY_NANOS = 10_000_000_000L;

    private final ConnectionLimits limits;
    private final AddressGroups groups;
    private final ClientAddresses clients;
    private final HttpServerOptions options;
    private final Map<String, Integer> open = new ConcurrentHashMap<>();
    private final AtomicLong lastWarning = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);

    ConnectionGuard(ConnectionLimits limits, AddressGroups groups, ClientAddresses clients, HttpServerOptions options) {
        this.limits = requireNonNull(limits, "limits is null");
        this.groups = requireNonNull(groups, "groups is null");
        this.clients = requireNonNull(clients, "clients is null");
        this.options = requireNonNull(options, "options is null");
    }

    /** Called by Vert.x on the connection's event loop, before it reads a byte of it. */
    void accept(HttpConnection connection) {
        if (!(connection instanceof Http1xServerConnection http1)) {
            // Only HTTP/1.x connections exist (no h2c, no ALPN); refuse to serve anything else.
            connection.close();
            return;
        }
        InetAddress peer = InetAddress.ofLiteral(connection.remoteAddress().hostAddress());
        if (!clients.isTrustedProxy(peer) && !count(groups.key(peer), http1)) {
            return;
        }
        ConnectionDeadlines deadlines = new ConnectionDeadlines(limits.headTimeout(), limits.idleTimeout());
        http1.channelHandlerContext().pipeline().addBefore("handler", ConnectionDeadlines.NAME, deadlines);
        StrictDecoding.install(http1, options, deadlines);
    }

    /** Counts the connection under {@code key} until it closes; false (and closed) past the cap. */
    private boolean count(String key, Http1xServerConnection connection) {
        boolean[] admitted = {false};
        open.compute(key, (ignored, count) -> {
            int current = count == null ? 0 : count;
            if (current >= limits.perAddress()) {
                return current;
            }
            admitted[0] = true;
            return current + 1;
        });
        if (!admitted[0]) {
            warn(key);
            connection.close();
            return false;
        }
        // The channel's own end, not the HTTP connection's: an upgraded connection (exec,
        // port-forward) is taken over from Vert.x and never closes as an HTTP connection.
        connection.channelHandlerContext().channel().closeFuture().addListener(closed ->
                open.computeIfPresent(key, (same, count) -> count <= 1 ? null : count - 1));
        return true;
    }

    private void warn(String key) {
        long last = lastWarning.get();
        long now = System.nanoTime();
        if (now - last >= WARN_EVERY_NANOS && lastWarning.compareAndSet(last, now)) {
            LOG.warn("connections from {} refused: {} open already (SERVICE_MAX_CONNECTIONS_PER_ADDRESS); "
                    + "further refusals are not logged for 10 s", Untrusted.text(key), limits.perAddress());
        }
    }

    /** Open connections counted under {@code key} (for tests). */
    int open(String key) {
        return open.getOrDefault(key, 0);
    }
}
