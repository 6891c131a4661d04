package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.Channel;
import dev.klave.cluster.ClusterId;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import java.net.InetAddress;

/**
 * One request to a cluster, whichever way it came in: the cluster, the method, a checked path,
 * the query, the client's address and the channel (the proxy, or a tool). What the audit row
 * says of the request is read from it once ({@link #info()}). A call Klave means as a preview
 * ({@link #preview}: a held write's dry run) says so, and is sent only if its query is a dry
 * run ({@code dryRun=All}): checked when it is made and again on the URI about to leave.
 */
public final class Call {
    /** What the caller means a call to do. */
    public enum Intent {
        /** What the request says: a read, or a write that changes the cluster. */
        ACT,
        /**
         * A held write's dry run, shown to a person before approval (spec 3 §4 "Write approval flow"
         * 1): sent only with {@code dryRun=All} on the wire, which the chain checks whatever the
         * transport.
         */
        PREVIEW
    }

    private final ClusterId cluster;
    private final Method method;
    private final ClusterPath path;
    private final Query query;
    private final InetAddress client;
    private final Channel channel;
    private final RequestInfo info;
    private final Intent intent;

    /** A call that does what it says. */
    public static Call of(ClusterId cluster, Method method, ClusterPath path, Query query, InetAddress client,
            Channel channel) {
        return new Call(cluster, method, path, query, client, channel, Intent.ACT);
    }

    /**
     * A call Klave means as a dry run — a held write's preview: it must carry {@code dryRun=All}.
     *
     * @throws IllegalStateException when its query is not a dry run
     */
    public static Call preview(ClusterId cluster, Method method, ClusterPath path, Query query, InetAddress client,
            Channel channel) {
        return new Call(cluster, method, path, query, client, channel, Intent.PREVIEW);
    }

    /** As {@link #of} or {@link #preview}, by what the caller means. */
    public static Call meant(Intent intent, ClusterId cluster, Method method, ClusterPath path, Query query,
            InetAddress client, Channel channel) {
        return new Call(cluster, method, path, query, client, channel, intent);
    }

    private Call(ClusterId cluster, Method method, ClusterPath path, Query query, InetAddress client, Channel channel,
            Intent intent) {
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.method = requireNonNull(method, "method is null");
        this.path = requireNonNull(path, "path is null");
        this.query = requireNonNull(query, "query is null");
        this.client = requireNonNull(client, "client is null");
        this.channel = requireNonNull(channel, "channel is null");
        this.intent = requireNonNull(intent, "intent is null");
        this.info = RequestInfo.of(method, path, query);
        if (intent == Intent.PREVIEW && !query.dryRun()) {
            throw new IllegalStateException("a preview is sent only as a dry run (dryRun=All)");
        }
    }

    /** Meant as a dry run: nothing may be sent for it without {@code dryRun=All}. */
    public boolean preview() {
        return intent == Intent.PREVIEW;
    }

    public ClusterId cluster() {
        return cluster;
    }

    public Method method() {
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

    @Override
    public String toString() {
        return method + " " + cluster.value() + path.encoded();
    }
}
