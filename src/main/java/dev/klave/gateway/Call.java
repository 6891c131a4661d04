package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.Channel;
import dev.klave.cluster.ClusterId;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Query;
import java.net.InetAddress;
import java.util.List;
import java.util.Locale;

/**
 * One request to a cluster, whichever way it came in: the cluster, the method, a checked path,
 * the query, the client's address and the channel (the proxy, or a tool). What the audit row
 * says of the request is read from it once ({@link #info()}). A call Klave means as a preview
 * ({@link #preview()}: a held write's dry run) says so, and is sent only if its query is a dry
 * run ({@code dryRun=All}): checked when it is made and again on the URI about to leave.
 */
public final class Call {
    /**
     * What the Kubernetes API serves, in the order {@code Allow} names them; anything else never
     * reaches a cluster (RFC 9110 §9.3.6, §9.3.8).
     */
    public static final List<String> METHODS = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

    private final ClusterId cluster;
    private final String method;
    private final ClusterPath path;
    private final Query query;
    private final InetAddress client;
    private final Channel channel;
    private final RequestInfo info;
    private final boolean preview;

    public Call(ClusterId cluster, String method, ClusterPath path, Query query, InetAddress client, Channel channel) {
        this(cluster, method, path, query, client, channel, false);
    }

    /**
     * @param preview the caller means this call as a dry run: it must carry {@code dryRun=All}
     * @throws IllegalStateException for a preview whose query is not a dry run
     */
    public Call(ClusterId cluster, String method, ClusterPath path, Query query, InetAddress client, Channel channel,
            boolean preview) {
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.method = requireNonNull(method, "method is null");
        this.path = requireNonNull(path, "path is null");
        this.query = requireNonNull(query, "query is null");
        this.client = requireNonNull(client, "client is null");
        this.channel = requireNonNull(channel, "channel is null");
        if (!METHODS.contains(method)) {
            throw new IllegalArgumentException("not a method the Kubernetes API serves: "
                    + method.toLowerCase(Locale.ROOT));
        }
        this.info = RequestInfo.of(method, path, query);
        this.preview = preview;
        if (preview && !query.dryRun()) {
            throw new IllegalStateException("a preview is sent only as a dry run (dryRun=All)");
        }
    }

    /** Meant as a dry run: nothing may be sent for it without {@code dryRun=All}. */
    public boolean preview() {
        return preview;
    }

    public ClusterId cluster() {
        return cluster;
    }

    public String method() {
        return method;
    }

    public ClusterPath path() {
        return path;
    }

    public Query query() {
        return query;
    }

    public InetAddress client() {
        return client;
    }

    public Channel channel() {
        return channel;
    }

    /** Verb, resource, namespace and name, as the API server reads them. */
    public RequestInfo info() {
        return info;
    }

    /** A watch or a followed log is long-lived; an upgrade, which only its transport knows, is too. */
    public Span span() {
        return info.verb().equals("watch") || query.follow() ? Span.LONG_LIVED : Span.BRIEF;
    }

    /** The request target for the cluster: the path and the query, each encoded once. */
    public String target() {
        return path.encoded() + query.suffix();
    }

    @Override
    public String toString() {
        return method + " " + cluster.value() + path.encoded();
    }
}
