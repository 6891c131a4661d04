package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.BootstrapSecrets;
import dev.klave.cluster.ClusterId;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.net.PemTrustOptions;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One pooled HTTP client per cluster and bootstrap, trusting only that cluster's registered CA
 * and checking the server's name, so a certificate from anyone else fails the handshake.
 */
final class Upstreams {
    static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    private final Vertx vertx;
    private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();

    Upstreams(Vertx vertx) {
        this.vertx = requireNonNull(vertx, "vertx is null");
    }

    HttpClient client(ClusterId cluster, BootstrapSecrets secrets) {
        String key = cluster.value() + "\n" + secrets.server() + "\n" + secrets.caPem();
        return clients.computeIfAbsent(key, ignored -> vertx.createHttpClient(new HttpClientOptions()
                .setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(secrets.caPem())))
                .setVerifyHost(true)
                .setConnectTimeout(CONNECT_TIMEOUT_MILLIS)
                .setKeepAlive(true), new PoolOptions().setHttp1MaxSize(64)));
    }
}
