package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.config.Cidr;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** X-Forwarded-For is believed only as far as trusted proxies vouch for it. */
class ClientAddressesTest {
    private final ClientAddresses addresses = new ClientAddresses(List.of(Cidr.parse("10.0.0.0/8"),
            Cidr.parse("127.0.0.1")));

    @ParameterizedTest(name = "peer {0}, X-Forwarded-For [{1}] -> {2}")
    @CsvSource(delimiter = '|', value = {
        // Untrusted peer: its header is ignored, whatever it says.
        "203.0.113.5|198.51.100.1|203.0.113.5",
        "203.0.113.5||203.0.113.5",
        // Trusted peer without a header: the peer itself.
        "10.0.0.2||10.0.0.2",
        // Trusted peer: the rightmost hop it did not add itself.
        "10.0.0.2|198.51.100.1|198.51.100.1",
        // A client-written left part is never believed.
        "10.0.0.2|6.6.6.6, 198.51.100.1|198.51.100.1",
        // Chains of trusted proxies are walked through.
        "10.0.0.2|198.51.100.1, 10.0.0.9, 10.1.1.1|198.51.100.1",
        // Several header lines count as one list.
        "10.0.0.2|198.51.100.1;10.0.0.9|198.51.100.1",
        // Ports written by some proxies are dropped.
        "127.0.0.1|198.51.100.1:4711|198.51.100.1",
        "127.0.0.1|[2001:db8::1]:4711|2001:db8::1",
        // Garbage stops the walk at the last address a trusted proxy vouched for.
        "10.0.0.2|not-an-ip|10.0.0.2",
        "10.0.0.2|198.51.100.1, garbage, 10.0.0.9|10.0.0.9",
        // Only trusted hops: the leftmost of them.
        "10.0.0.2|10.0.0.7, 10.0.0.9|10.0.0.7",
    })
    void clientIsTheFirstUntrustedHopFromTheRight(String peer, String forwardedFor, String expected) {
        List<String> headers = forwardedFor == null ? List.of() : Arrays.asList(forwardedFor.split(";"));

        InetAddress client = addresses.resolve(InetAddress.ofLiteral(peer), headers);

        assertThat(client).isEqualTo(InetAddress.ofLiteral(expected));
    }
}
