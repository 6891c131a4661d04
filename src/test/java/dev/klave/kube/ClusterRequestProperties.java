package dev.klave.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.messages.Refusal;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whatever text reaches a cluster request's builders — a tool's argument, a name read back from a
 * cluster, a client's path or query — the request either is refused or says exactly what its parts
 * say: one segment per segment, one pair per pair, no fragment, and a dry run only when asked.
 */
class ClusterRequestProperties {
    private static final URI SERVER = URI.create("https://cluster.example:6443/prefix");

    /** Text rich in what URIs, Kubernetes and Go's query parser read specially, and anything else. */
    @Provide
    Arbitrary<String> hostile() {
        Arbitrary<String> special = Arbitraries.strings().withChars("#?/%&=;+ .:@\"<>[]^`{|}\\\t\n\r\u0000~!$'()*,")
                .withCharRange('a', 'c').ofMaxLength(12);
        Arbitrary<String> escapes = Arbitraries.of("%2F", "%2e", "%2E%2E", "%23", "%3F", "%", "%zz", "dryRun=All",
                "&dryRun=None", "..", ".", "?dryRun=All", "#", "/", "web", "ñ", "\uD83D\uDE00", "\uD800");
        Arbitrary<String> pieces = Arbitraries.oneOf(special, escapes, Arbitraries.strings().all().ofMaxLength(8));
        return pieces.list().ofMaxSize(4).map(parts -> String.join("", parts));
    }

    @Property(tries = 3000)
    void aNameIsRefusedOrIsExactlyOneSegmentOfThePath(@ForAll("hostile") String name) {
        if (!KubeNames.isPathSegment(name)) {
            assertThatThrownBy(() -> ClusterPath.of("api", "v1", "namespaces", "default", "configmaps", name))
                    .isInstanceOf(Refusal.class);
            return;
        }
        ClusterPath path = ClusterPath.of("api", "v1", "namespaces", "default", "configmaps", name);
        URI uri = ClusterUri.of(SERVER, path, Query.NONE);

        assertThat(uri.getRawFragment()).isNull();
        assertThat(uri.getRawQuery()).isNull();
        assertThat(uri.getRawPath()).isEqualTo("/prefix" + path.encoded());
        assertThat(uri.getPath()).isEqualTo("/prefix/api/v1/namespaces/default/configmaps/" + name);
        assertThat(path.encoded()).matches("[A-Za-z0-9\\-._~!$&'()*+,=:@/%]*");
    }

    @Property(tries = 3000)
    void pairsAreEncodedOnceAndReadBackAsTheSamePairs(@ForAll("pairs") List<Query.Pair> pairs) {
        if (pairs.stream().anyMatch(pair -> !KubeNames.wellFormed(pair.name()) || !KubeNames.wellFormed(pair.value()))) {
            assertThatThrownBy(() -> Query.of(pairs)).isInstanceOf(IllegalArgumentException.class);
            return;
        }
        Query query = Query.of(pairs);
        URI uri = ClusterUri.of(SERVER, ClusterPath.of("api"), query);

        assertThat(uri.getRawFragment()).isNull();
        assertThat(uri.getRawQuery()).isEqualTo(query.encoded().isEmpty() ? null : query.encoded());
        assertThat(Query.parse(query.encoded()).pairs()).isEqualTo(pairs);
        assertThat(query.dryRun()).isEqualTo(pairs.stream().anyMatch(pair -> pair.name().equals("dryRun"))
                && pairs.stream().filter(pair -> pair.name().equals("dryRun")).allMatch(pair -> pair.value()
                        .equals("All")));
        assertThat(query.with("dryRun", "All").dryRun()).isEqualTo(pairs.stream()
                .filter(pair -> pair.name().equals("dryRun")).allMatch(pair -> pair.value().equals("All")));
    }

    @Provide
    Arbitrary<List<Query.Pair>> pairs() {
        Arbitrary<String> name = Arbitraries.oneOf(hostile().filter(text -> !text.isEmpty()),
                Arbitraries.of("dryRun", "watch", "fieldManager"));
        Arbitrary<String> value = Arbitraries.oneOf(hostile(), Arbitraries.of("All", "true"));
        return Combinators.combine(name, value).as(Query.Pair::new).list().ofMaxSize(4)
                .map(ArrayList::new);
    }

    @Property(tries = 3000)
    void aClientsPathIsRefusedOrForwardedByteForByte(@ForAll("hostile") String tail) {
        String raw = "/api/v1/namespaces/" + tail;
        ClusterPath path;
        try {
            path = ClusterPath.parse(raw);
        } catch (Refusal refused) {
            return;
        }
        URI uri = ClusterUri.of(SERVER, path, Query.NONE);

        assertThat(path.encoded()).isEqualTo(raw);
        assertThat(uri.getRawPath()).isEqualTo("/prefix" + raw);
        assertThat(path.segments()).noneMatch(segment -> segment.isEmpty() || segment.equals(".")
                || segment.equals(".."));
    }

    @Property(tries = 3000)
    void aClientsQueryIsRefusedOrForwardedByteForByte(@ForAll("hostile") String raw) {
        Query query;
        try {
            query = Query.parse(raw);
        } catch (Refusal refused) {
            return;
        }
        URI uri = ClusterUri.of(SERVER, ClusterPath.of("api"), query);

        assertThat(query.encoded()).isEqualTo(raw);
        assertThat(uri.getRawFragment()).isNull();
        assertThat(uri.getRawQuery()).isEqualTo(raw.isEmpty() ? null : raw);
    }
}
