package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.kube.Method;
import dev.klave.audit.Channel;
import dev.klave.cluster.ClusterId;
import dev.klave.gateway.Call;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Query;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.http.EdgeMap;
import java.net.InetAddress;
import java.util.Optional;

/**
 * Where a proxy request goes, read from the raw request target as the client sent it (spec 1 §4
 * "Proxy"): {@code /clusters/<id>} and {@code /clusters/<id>/} are {@code /}; empty segments,
 * {@code .}, {@code ..}, any {@code %} escape, {@code ;} and characters RFC 3986 does not allow in
 * a path are refused ({@link ClusterPath#parse}). The query is forwarded as sent once its
 * characters and escapes are checked ({@link Query#parse}).
 */
public record ProxyTarget(ClusterId cluster, ClusterPath path, Query query) {
    public ProxyTarget {
        requireNonNull(cluster, "cluster is null");
        requireNonNull(path, "path is null");
        requireNonNull(query, "query is null");
    }

    /** The call this request makes, for the gateway. */
    public Call call(Method method, InetAddress client) {
        return Call.of(cluster, method, path, query, client, Channel.PROXY);
    }

    /**
     * @param rawTarget the request line's target, e.g. {@code /clusters/prod-1/api/v1/pods?watch=1}
     * @throws Refusal 400 or 404 with the spec's Status message
     */
    public static ProxyTarget parse(String rawTarget) {
        int question = rawTarget.indexOf('?');
        String rawPath = question < 0 ? rawTarget : rawTarget.substring(0, question);
        String query = question < 0 ? "" : rawTarget.substring(question + 1);
        Split split = Split.of(rawPath).orElseThrow(Message.CLUSTER_UNKNOWN::refusal);
        String id = split.cluster();
        if (!ClusterId.isValid(id)) {
            if (id.isEmpty() || id.contains("%") || id.equals(".") || id.equals("..")) {
                throw Message.PATH_INVALID.refusal();
            }
            throw Message.CLUSTER_ID_INVALID.refusal(id.length() > 80 ? id.substring(0, 80) + "…" : id);
        }
        return new ProxyTarget(new ClusterId(id), ClusterPath.parse(split.path()), Query.parse(query));
    }

    /**
     * A raw proxy path cut in its cluster segment and the rest, unchecked: {@code /clusters/a/b}
     * is {@code a} and {@code /b}, {@code /clusters/a} is {@code a} and {@code /}.
     */
    record Split(String cluster, String path) {
        static Optional<Split> of(String rawPath) {
            String prefix = EdgeMap.CLUSTERS + "/";
            if (!rawPath.startsWith(prefix)) {
                return Optional.empty();
            }
            String rest = rawPath.substring(prefix.length());
            int slash = rest.indexOf('/');
            return Optional.of(slash < 0 ? new Split(rest, "/") : new Split(rest.substring(0, slash),
                    rest.substring(slash)));
        }
    }
}
