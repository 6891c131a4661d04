package dev.klave.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/** Finds the addresses of a host name; the system's resolver in production, a fixed table in tests. */
@FunctionalInterface
public interface Resolver {
    List<InetAddress> resolve(String host) throws UnknownHostException;

    static Resolver system() {
        return host -> List.of(InetAddress.getAllByName(host));
    }
}
