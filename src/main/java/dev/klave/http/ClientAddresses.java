package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.config.Cidr;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Who the client is. {@code X-Forwarded-For} is believed only when the socket peer is one of
 * {@code SERVICE_TRUSTED_PROXIES}; then the list is read from the right, skipping the trusted
 * proxies' own hops, and the first address that is not a trusted proxy is the client. Anything
 * left of it was written by the client and could be forged, so it is never used.
 */
public final class ClientAddresses {
    private final List<Cidr> trustedProxies;

    public ClientAddresses(List<Cidr> trustedProxies) {
        this.trustedProxies = List.copyOf(requireNonNull(trustedProxies, "trustedProxies is null"));
    }

    public InetAddress resolve(InetAddress peer, List<String> forwardedForHeaders) {
        requireNonNull(peer, "peer is null");
        if (!trusted(peer)) {
            return peer;
        }
        List<String> hops = new ArrayList<>();
        for (String header : forwardedForHeaders) {
            for (String hop : header.split(",")) {
                hops.add(hop.strip());
            }
        }
        InetAddress client = peer;
        for (int i = hops.size() - 1; i >= 0; i--) {
            InetAddress hop;
            try {
                hop = InetAddress.ofLiteral(stripPort(hops.get(i)));
            } catch (IllegalArgumentException e) {
                // A malformed hop: stop at the last address a trusted proxy vouched for.
                return client;
            }
            client = hop;
            if (!trusted(hop)) {
                return hop;
            }
        }
        return client;
    }

    /** Whether {@code address} is one of {@code SERVICE_TRUSTED_PROXIES}. */
    boolean isTrustedProxy(InetAddress address) {
        return trusted(address);
    }

    private boolean trusted(InetAddress address) {
        for (Cidr block : trustedProxies) {
            if (block.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** Some proxies write {@code 1.2.3.4:5678} or {@code [::1]:5678}. */
    private static String stripPort(String hop) {
        if (hop.startsWith("[")) {
            int end = hop.indexOf(']');
            return end < 0 ? hop : hop.substring(1, end);
        }
        int colon = hop.indexOf(':');
        if (colon >= 0 && colon == hop.lastIndexOf(':')) {
            return hop.substring(0, colon);
        }
        return hop;
    }
}
