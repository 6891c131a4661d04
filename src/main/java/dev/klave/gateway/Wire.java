package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.kube.Method;
import dev.klave.cluster.BootstrapSecrets;
import dev.klave.kube.ClusterUri;
import dev.klave.kube.Query;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * The one request a call may send to its cluster, built once by the {@link CallChain} for every
 * transport (issue 52): the URI on the cluster's registered address ({@link ClusterUri}, the one
 * builder), read back so that a preview leaves only as a dry run whatever carries it, and the
 * headers that make the cluster act as the caller ({@link Impersonation}).
 *
 * @param cluster where to connect, with the CA to pin
 */
public record Wire(Method method, URI uri, List<Map.Entry<String, String>> impersonation, BootstrapSecrets cluster) {
    public Wire {
        requireNonNull(method, "method is null");
        requireNonNull(uri, "uri is null");
        impersonation = List.copyOf(impersonation);
        requireNonNull(cluster, "cluster is null");
    }

    /**
     * The wire request of an admitted call.
     *
     * @throws IllegalStateException for a preview whose URI, read back, is not a dry run (never sent)
     */
    static Wire of(Call call, Caller caller) {
        if (call.preview() && !call.query().dryRun()) {
            throw new IllegalStateException("a preview leaves only as a dry run (dryRun=All)");
        }
        URI uri = ClusterUri.of(caller.cluster().server(), call.path(), call.query());
        if (call.preview() && !Query.parse(uri.getRawQuery() == null ? "" : uri.getRawQuery()).dryRun()) {
            throw new IllegalStateException("a preview without dryRun=All on the wire");
        }
        return new Wire(call.method(), uri, Impersonation.headers(caller), caller.cluster());
    }

    /** The request target on the request line: the URI's path and query, as built. */
    public String target() {
        return uri.getRawQuery() == null ? uri.getRawPath() : uri.getRawPath() + "?" + uri.getRawQuery();
    }

    /** The port to connect to: the URI's, or HTTPS's. */
    public int port() {
        return uri.getPort() == -1 ? 443 : uri.getPort();
    }
}
