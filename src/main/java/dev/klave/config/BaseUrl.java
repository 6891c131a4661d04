package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The public address of the service ({@code SERVICE_BASE_URL}): http or https, no user info,
 * query or fragment; kept without a trailing slash so that {@code base + "/cuenta"} is exact.
 */
public record BaseUrl(String scheme, String host, int port, String path) {
    public BaseUrl {
        requireNonNull(scheme, "scheme is null");
        requireNonNull(host, "host is null");
        requireNonNull(path, "path is null");
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("scheme must be http or https");
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("host is empty");
        }
        if (path.endsWith("/")) {
            throw new IllegalArgumentException("path ends with a slash");
        }
    }

    public static BaseUrl parse(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL");
        }
        if (uri.getScheme() == null || uri.isOpaque()) {
            throw new IllegalArgumentException("must be an absolute http(s) URL");
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("scheme must be http or https");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("must not have a query or fragment");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("must not carry a user name or password");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("has no host");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return new BaseUrl(scheme, uri.getHost().toLowerCase(Locale.ROOT), uri.getPort(), path);
    }

    public boolean isHttps() {
        return scheme.equals("https");
    }

    /**
     * The origin as a browser writes it in the {@code Origin} header (RFC 6454 §6.1): scheme, host
     * and the port only when it is not the scheme's default.
     */
    public String origin() {
        int defaultPort = isHttps() ? 443 : 80;
        if (port == -1 || port == defaultPort) {
            return scheme + "://" + host;
        }
        return scheme + "://" + host + ":" + port;
    }

    /** What a browser sends as {@code Host} for this address: the port only when not the scheme's default. */
    public String hostAndPort() {
        return origin().substring(scheme.length() + "://".length());
    }

    /** The base URL followed by {@code absolutePath}, which starts with a slash. */
    public String resolve(String absolutePath) {
        if (!absolutePath.startsWith("/")) {
            throw new IllegalArgumentException("path must start with a slash");
        }
        return origin() + path + absolutePath;
    }

    @Override
    public String toString() {
        return origin() + path;
    }
}
