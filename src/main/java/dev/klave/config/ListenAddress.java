package dev.klave.config;

import static java.util.Objects.requireNonNull;

/** Where the HTTP server listens ({@code SERVICE_LISTEN}): {@code host:port}, port 0 for any free one. */
public record ListenAddress(String host, int port) {
    public ListenAddress {
        requireNonNull(host, "host is null");
        if (host.isEmpty()) {
            throw new IllegalArgumentException("host is empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be between 0 and 65535");
        }
    }

    public static ListenAddress parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("must be host:port, e.g. 0.0.0.0:8080");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw new IllegalArgumentException("an IPv6 address goes in brackets, e.g. [::]:8080");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port is not a number");
        }
        return new ListenAddress(host, port);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
