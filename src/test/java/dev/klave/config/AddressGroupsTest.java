package dev.klave.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** Per-address limits count an IPv4 address as one client and an IPv6 client by its block. */
class AddressGroupsTest {
    private static String key(AddressGroups groups, String address) {
        return groups.key(InetAddress.ofLiteral(address));
    }

    @Test
    void ipv6AddressesOfOneSlash64AreOneClient() {
        AddressGroups groups = new AddressGroups(64);

        assertThat(key(groups, "2001:db8:1:2:aaaa::1")).isEqualTo(key(groups, "2001:db8:1:2:ffff:ffff:ffff:fffe"))
                .isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(key(groups, "2001:db8:1:3::1")).isNotEqualTo(key(groups, "2001:db8:1:2::1"));
    }

    @Test
    void theBlockSizeIsASetting() {
        assertThat(key(new AddressGroups(48), "2001:db8:1:2::1")).isEqualTo(key(new AddressGroups(48), "2001:db8:1:ff::1"));
        assertThat(key(new AddressGroups(128), "2001:db8::1")).isNotEqualTo(key(new AddressGroups(128), "2001:db8::2"));
    }

    @Test
    void ipv4AndMappedIpv4AreCountedByAddress() {
        AddressGroups groups = new AddressGroups(64);

        assertThat(key(groups, "192.0.2.7")).isEqualTo("192.0.2.7");
        assertThat(key(groups, "::ffff:192.0.2.7")).isEqualTo("192.0.2.7");
        assertThat(key(groups, "192.0.2.8")).isNotEqualTo(key(groups, "192.0.2.7"));
    }
}
