package dev.klave.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The public-only policy on address literals: every special-purpose block refused, its neighbours permitted. */
class PublicAddressesTest {
    private final AddressPolicy policy = AddressPolicy.publicOnly();

    @ParameterizedTest
    @ValueSource(strings = {
        "0.0.0.0", "0.255.255.255", // this network, unspecified
        "10.0.0.1", "10.255.255.255", // RFC 1918
        "100.64.0.1", "100.127.255.255", // CGNAT
        "127.0.0.1", "127.1.2.3", "127.255.255.255", // loopback
        "169.254.0.1", "169.254.169.254", // link-local, cloud metadata
        "172.16.0.1", "172.31.255.255", // RFC 1918
        "192.0.0.1", "192.0.0.170", // IETF protocol assignments
        "192.0.2.1", "198.51.100.7", "203.0.113.9", // documentation
        "192.88.99.1", // 6to4 relay
        "192.168.0.1", "192.168.255.255", // RFC 1918
        "198.18.0.1", "198.19.255.255", // benchmarking
        "224.0.0.1", "239.255.255.250", // multicast
        "240.0.0.1", "255.255.255.255", // reserved, broadcast
        "::", "::1", // unspecified, loopback
        "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254", "::ffff:192.168.1.1", // mapped
        "::127.0.0.1", // IPv4-compatible, deprecated
        "64:ff9b::a00:1", // NAT64
        "fc00::1", "fd12:3456::1", // unique local
        "fe80::1", "febf::1", // link-local
        "fec0::1", // site-local, deprecated
        "ff02::1", "ff05::2", // multicast
        "2001:db8::1", "2001:db8:ffff::1", // documentation
        "3fff::1", // documentation (RFC 9637)
        "2001::1", "2001:2::1", // Teredo, benchmarking
        "2002:a00:1::1", "2002:7f00:1::1", // 6to4 carrying 10.0.0.1, 127.0.0.1
        "4000::1", "8000::1" // outside global unicast
    })
    void refused(String literal) {
        assertThat(policy.permits(InetAddress.ofLiteral(literal))).as(literal).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "1.1.1.1", "8.8.8.8", "93.184.215.14", "140.82.112.3",
        "9.255.255.255", "11.0.0.1", // around 10/8
        "100.63.255.255", "100.128.0.1", // around 100.64/10
        "126.255.255.255", "128.0.0.1", // around 127/8
        "169.253.255.255", "169.255.0.1", // around 169.254/16
        "172.15.255.255", "172.32.0.1", // around 172.16/12
        "192.0.1.1", "192.167.255.255", "192.169.0.1", // around 192.0.0/24 and 192.168/16
        "198.17.255.255", "198.20.0.1", // around 198.18/15
        "223.255.255.255", // just below multicast
        "::ffff:8.8.8.8", // mapped, of a public address
        "2606:4700:4700::1111", "2a00:1450:4001:81d::200e", "2001:4860:4860::8888", "2400:cb00::1",
        "2001:200::1" // just past 2001::/23
    })
    void permitted(String literal) {
        assertThat(policy.permits(InetAddress.ofLiteral(literal))).as(literal).isTrue();
    }

    @Test
    void aMappedAddressKeptAsIpv6IsJudgedByTheIpv4AddressItCarries() throws Exception {
        byte[] mappedLoopback = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 127, 0, 0, 1};
        byte[] mappedPublic = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 8, 8, 8, 8};

        InetAddress loopback = Inet6Address.getByAddress(null, mappedLoopback, -1);
        InetAddress publicOne = Inet6Address.getByAddress(null, mappedPublic, -1);

        assertThat(loopback).isInstanceOf(Inet6Address.class);
        assertThat(policy.permits(loopback)).isFalse();
        assertThat(policy.permits(publicOne)).isTrue();
    }

    @Test
    void aScopedLinkLocalAddressIsRefusedWhateverItsZone() throws Exception {
        byte[] linkLocal = InetAddress.ofLiteral("fe80::1").getAddress();

        assertThat(policy.permits(Inet6Address.getByAddress(null, linkLocal, 2))).isFalse();
    }
}
