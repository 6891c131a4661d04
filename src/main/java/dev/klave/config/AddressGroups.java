package dev.klave.config;

import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * How client addresses are grouped by every per-address limit. An IPv4 address is one client. An
 * IPv6 client usually holds a whole /64 (RFC 6177; SLAAC and privacy addresses pick any of its
 * 2^64 addresses at will), so counting single IPv6 addresses would let it pass any limit: it is
 * counted by its block of {@code SERVICE_IPV6_PREFIX} bits. An IPv4-mapped IPv6 address is the
 * IPv4 address it maps.
 *
 * @param ipv6Prefix how many leading bits of an IPv6 address name one client (1 to 128)
 */
public record AddressGroups(int ipv6Prefix) {
    public static final int DEFAULT_IPV6_PREFIX = 64;

    public AddressGroups {
        if (ipv6Prefix < 1 || ipv6Prefix > 128) {
            throw new IllegalArgumentException("must be a prefix length from 1 to 128");
        }
    }

    static AddressGroups parse(String text) {
        try {
            return new AddressGroups(Integer.parseInt(text.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a prefix length from 1 to 128");
        }
    }

    /** The name under which {@code address} is counted: the address, or its IPv6 block in CIDR form. */
    public String key(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return address.getHostAddress();
        }
        byte[] bytes = address.getAddress();
        for (int bit = ipv6Prefix; bit < 128; bit++) {
            bytes[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        try {
            // Zone ids (fe80::1%eth0) are dropped: the block is what counts.
            return InetAddress.getByAddress(bytes).getHostAddress() + "/" + ipv6Prefix;
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("16 bytes are always an address", e);
        }
    }
}
