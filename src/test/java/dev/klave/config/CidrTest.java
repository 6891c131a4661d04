package dev.klave.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CidrTest {
    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @CsvSource({
        "10.0.0.0/8, 10.255.1.2, true",
        "10.0.0.0/8, 11.0.0.1, false",
        "192.168.1.7, 192.168.1.7, true",
        "192.168.1.7, 192.168.1.8, false",
        "172.16.0.0/12, 172.31.255.255, true",
        "172.16.0.0/12, 172.32.0.0, false",
        "0.0.0.0/0, 203.0.113.9, true",
        "fd00::/8, fd12:3456::1, true",
        "fd00::/8, fe80::1, false",
        "::1, ::1, true",
        "10.0.0.0/8, ::ffff:10.0.0.1, true",
        "10.0.0.0/8, fd00::1, false",
    })
    void blockContainsExactlyItsAddresses(String block, String address, boolean contained) {
        assertThat(Cidr.parse(block).contains(InetAddress.ofLiteral(address))).isEqualTo(contained);
    }
}
