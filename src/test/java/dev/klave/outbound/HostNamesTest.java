package dev.klave.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An IPv4 address is read in one form only: plain dotted decimal, which every parser reads alike. */
class HostNamesTest {
    @ParameterizedTest
    @ValueSource(strings = {"0177.0.0.1", "0x7f.0.0.1", "0X7F.1", "127.1", "2130706433", "0x7f000001", "1.2.3.04",
        "256.1.1.1", "1.2.3.4.5", "a.b.c.0x1", "example.123", "1.2.3.4.", "0", "0x"})
    void numericHostsInAnyOtherFormAreAmbiguous(String host) {
        assertThat(HostNames.ambiguousIpv4(host)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "203.0.113.9", "0.0.0.0", "255.255.255.255", "client.example",
        "a1.example", "123.example", "2001:db8::1", "x0177"})
    void plainDottedDecimalAndNamesAreNot(String host) {
        assertThat(HostNames.ambiguousIpv4(host)).isFalse();
    }

    @Property
    void everyCanonicalAddressIsAccepted(@ForAll @IntRange(max = 255) int a, @ForAll @IntRange(max = 255) int b,
            @ForAll @IntRange(max = 255) int c, @ForAll @IntRange(max = 255) int d) {
        assertThat(HostNames.ambiguousIpv4(a + "." + b + "." + c + "." + d)).isFalse();
        assertThat(HostNames.ambiguousIpv4("0" + a + "." + b + "." + c + "." + d)).isTrue();
    }
}
