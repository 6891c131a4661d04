package dev.klave.kube;

import static java.util.Objects.requireNonNull;

import java.net.URI;

/**
 * The one place a cluster request becomes a {@link URI}: the API server's registered address, then
 * the encoded path and query. Their text comes only from {@link ClusterPath#encoded()} and {@link
 * Query#encoded()}, and the result is read back — its path, query and (absent) fragment must be
 * exactly the parts given — so a request is sent as it was built, or not at all.
 */
public final class ClusterUri {
    private ClusterUri() {}

    /**
     * @param server the cluster's API server (https, no query or fragment; a path is kept as a prefix)
     * @throws IllegalStateException when the URI would not say what the parts say (a defect, never input)
     */
    public static URI of(URI server, ClusterPath path, Query query) {
        requireNonNull(server, "server is null");
        requireNonNull(path, "path is null");
        requireNonNull(query, "query is null");
        if (server.getRawQuery() != null || server.getRawFragment() != null || server.getRawAuthority() == null) {
            throw new IllegalStateException("a cluster's server is scheme and authority, and a path at most");
        }
        String prefix = server.getRawPath() == null ? "" : server.getRawPath();
        if (prefix.endsWith("/")) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        String rawPath = prefix + path.encoded();
        URI uri = URI.create(server.getScheme() + "://" + server.getRawAuthority() + rawPath + query.suffix());
        boolean same = uri.getRawPath().equals(rawPath) && uri.getRawFragment() == null
                && (query.encoded().isEmpty() ? uri.getRawQuery() == null : query.encoded().equals(uri.getRawQuery()));
        if (!same) {
            throw new IllegalStateException("a cluster request's URI does not say what its parts say");
        }
        return uri;
    }
}
