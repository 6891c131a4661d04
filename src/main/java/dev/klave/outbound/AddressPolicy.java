package dev.klave.outbound;

import java.net.InetAddress;

/**
 * Which addresses a call out may connect to. {@link PinnedHttps} asks it about every address a
 * name resolves to, before connecting, and then connects only to an address it permitted — so the
 * answer holds for the connection itself, not only for one look-up among several (DNS rebinding).
 */
@FunctionalInterface
public interface AddressPolicy {
    boolean permits(InetAddress address);

    /**
     * Public unicast addresses only: no loopback, private, link-local (cloud metadata at
     * 169.254.169.254), shared (CGNAT), multicast, documentation or otherwise special-purpose
     * address, however it is written (see {@link PublicAddresses}).
     */
    static AddressPolicy publicOnly() {
        return PublicAddresses.INSTANCE;
    }
}
