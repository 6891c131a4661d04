package dev.klave.outbound;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;

/**
 * The public-only policy: an address is public when no special-purpose block of the IANA
 * registries (RFC 6890, with the blocks added since) holds it.
 *
 * <p>IPv6 is permitted only inside global unicast {@code 2000::/3} (RFC 4291 §2.4), so loopback
 * {@code ::1}, unspecified {@code ::}, unique local {@code fc00::/7}, link-local {@code fe80::/10},
 * site-local {@code fec0::/10}, multicast {@code ff00::/8}, NAT64 {@code 64:ff9b::/96} and
 * IPv4-compatible addresses are all outside it. An IPv4-mapped address ({@code ::ffff:a.b.c.d},
 * RFC 4291 §2.5.5.2) is judged by the IPv4 address it carries, since that is where it connects.
 */
final class PublicAddresses implements AddressPolicy {
    static final PublicAddresses INSTANCE = new PublicAddresses();

    private static final List<Block> REFUSED_IPV4 = List.of(
            Block.of("0.0.0.0/8"), // "this network", 0.0.0.0 unspecified (RFC 791, RFC 1122 §3.2.1.3)
            Block.of("10.0.0.0/8"), // private (RFC 1918)
            Block.of("100.64.0.0/10"), // shared address space, carrier-grade NAT (RFC 6598)
            Block.of("127.0.0.0/8"), // loopback (RFC 1122)
            Block.of("169.254.0.0/16"), // link-local (RFC 3927), cloud metadata 169.254.169.254
            Block.of("172.16.0.0/12"), // private (RFC 1918)
            Block.of("192.0.0.0/24"), // IETF protocol assignments (RFC 6890 §2.2.2)
            Block.of("192.0.2.0/24"), // TEST-NET-1 documentation (RFC 5737)
            Block.of("192.88.99.0/24"), // 6to4 relay anycast, deprecated (RFC 7526)
            Block.of("192.168.0.0/16"), // private (RFC 1918)
            Block.of("198.18.0.0/15"), // benchmarking (RFC 2544)
            Block.of("198.51.100.0/24"), // TEST-NET-2 documentation (RFC 5737)
            Block.of("203.0.113.0/24"), // TEST-NET-3 documentation (RFC 5737)
            Block.of("224.0.0.0/4"), // multicast (RFC 5771)
            Block.of("240.0.0.0/4")); // reserved (RFC 1112 §4), and 255.255.255.255 broadcast (RFC 919)

    private static final Block GLOBAL_UNICAST_IPV6 = Block.of("2000::/3");
    private static final List<Block> REFUSED_IPV6 = List.of(
            Block.of("2001::/23"), // IETF protocol assignments: Teredo, benchmarking, ORCHID (RFC 2928)
            Block.of("2001:db8::/32"), // documentation (RFC 3849)
            Block.of("2002::/16"), // 6to4, which carries an IPv4 address of any kind (RFC 3056)
            Block.of("3fff::/20")); // documentation (RFC 9637)

    private static final byte[] MAPPED_PREFIX = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff};

    private PublicAddresses() {}

    @Override
    public boolean permits(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address) {
            return REFUSED_IPV4.stream().noneMatch(block -> block.contains(bytes));
        }
        if (!(address instanceof Inet6Address)) {
            return false;
        }
        if (Arrays.equals(bytes, 0, 12, MAPPED_PREFIX, 0, 12)) {
            byte[] carried = Arrays.copyOfRange(bytes, 12, 16);
            return REFUSED_IPV4.stream().noneMatch(block -> block.contains(carried));
        }
        return GLOBAL_UNICAST_IPV6.contains(bytes) && REFUSED_IPV6.stream().noneMatch(block -> block.contains(bytes));
    }

    /** An address block: the first {@code bits} bits of {@code prefix}. */
    private record Block(byte[] prefix, int bits) {
        static Block of(String cidr) {
            int slash = cidr.indexOf('/');
            byte[] prefix = InetAddress.ofLiteral(cidr.substring(0, slash)).getAddress();
            int bits = Integer.parseInt(cidr.substring(slash + 1));
            if (bits < 0 || bits > prefix.length * 8) {
                throw new IllegalArgumentException("bad prefix length: " + cidr);
            }
            return new Block(prefix, bits);
        }

        boolean contains(byte[] address) {
            if (address.length != prefix.length) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((address[bit / 8] & mask) != (prefix[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}
