package dev.klave.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Issue 51: what a cluster chose in its 101 answer is understood only when it is exactly one of the
 * protocols the recorder reads; any other text, any second value, any extension is not — and never
 * throws. And a session's request is classified from its segments alone: no other spelling of
 * exec or attach is a session.
 */
class StreamProtocolProperties {
    private static final Set<String> READ = Set.of("v5.channel.k8s.io", "v4.channel.k8s.io", "channel.k8s.io",
            "v4.base64.channel.k8s.io", "base64.channel.k8s.io");

    @Provide
    Arbitrary<String> protocols() {
        return Arbitraries.oneOf(Arbitraries.of(List.copyOf(READ)),
                Arbitraries.of(List.copyOf(READ)).map(known -> known.toUpperCase()),
                Arbitraries.of(List.copyOf(READ)).map(known -> known + " x"),
                Arbitraries.of(List.copyOf(READ)).map(known -> "x" + known),
                Arbitraries.strings().ofMaxLength(40));
    }

    @Property(tries = 2000)
    void aWebSocketChoiceIsUnderstoodOnlyWhenExactlyOneReadProtocolWithoutExtensions(
            @ForAll("protocols") String protocol, @ForAll boolean extension, @ForAll boolean second) {
        List<String> subprotocols = second ? List.of(protocol, "v4.channel.k8s.io") : List.of(protocol);
        StreamProtocol.Choice choice = new StreamProtocol.Choice(List.of("websocket"), subprotocols,
                extension ? List.of("permessage-deflate") : List.of(), List.of());
        Optional<StreamProtocol> understood = choice.understood();
        boolean known = READ.contains(protocol.strip()) || protocol.isBlank();
        assertThat(understood.isPresent()).as(protocol).isEqualTo(known && !extension && !second);
        understood.ifPresent(read -> assertThat(read).isEqualTo(protocol.contains("base64")
                ? StreamProtocol.WEBSOCKET_BASE64 : StreamProtocol.WEBSOCKET));
        assertThat(choice.describe()).startsWith("Upgrade: websocket");
    }

    @Property(tries = 1000)
    void anyOtherUpgradeIsNotUnderstood(@ForAll("protocols") String upgrade) {
        StreamProtocol.Choice choice = new StreamProtocol.Choice(List.of(upgrade), List.of(), List.of(), List.of());
        boolean known = upgrade.strip().equalsIgnoreCase("websocket") || upgrade.strip().equalsIgnoreCase("spdy/3.1");
        assertThat(choice.understood().isPresent()).isEqualTo(known);
    }

    @Provide
    Arbitrary<List<String>> segments() {
        Arbitrary<String> segment = Arbitraries.oneOf(
                Arbitraries.of("api", "apis", "v1", "namespaces", "team-a", "pods", "box", "exec", "attach", "EXEC",
                        "Exec", "portforward", "nodes", "node-1", "proxy", "run", "portForward", "app", "uid"),
                Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8));
        return segment.list().ofMaxSize(11);
    }

    @Property(tries = 3000)
    void aSessionIsRecognisedOnlyOnTheApiServersAndTheKubeletsExactRoutes(@ForAll("segments") List<String> path) {
        SessionRequest request = SessionRequest.of(path, dev.klave.kube.Query.parse("command=id"));
        boolean pod = path.size() == 7 && path.subList(0, 3).equals(List.of("api", "v1", "namespaces"))
                && path.get(4).equals("pods") && Set.of("exec", "attach").contains(path.get(6));
        boolean kubelet = (path.size() == 9 || path.size() == 10) && path.subList(0, 3).equals(List.of("api", "v1",
                "nodes")) && path.get(4).equals("proxy") && Set.of("exec", "attach", "run").contains(path.get(5));
        assertThat(request instanceof SessionRequest.Recorded).as(String.join("/", path)).isEqualTo(pod || kubelet);
    }
}
