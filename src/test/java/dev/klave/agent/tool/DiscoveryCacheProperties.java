package dev.klave.agent.tool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.cluster.ClusterId;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Example;

/**
 * The entity tag a cluster sends with its discovery document is the one piece of its text Klave
 * sends back in a header: only an RFC 9110 entity tag is kept, anything else (a CR, an LF, no
 * quotes, too long) is never stored, so never sent.
 */
class DiscoveryCacheProperties {
    @Property(tries = 500)
    void onlyAnEntityTagIsKeptAndItHoldsNoControlCharacter(@ForAll String text) {
        DiscoveryCache cache = new DiscoveryCache();
        ClusterId cluster = new ClusterId("prod-1");

        cache.put(cluster, "apis", Optional.of(text), List.of());

        cache.get(cluster, "apis").ifPresent(entry -> assertThat(entry.etag())
                .matches("(W/)?\"[\\x21\\x23-\\x7E]*\"").hasSizeLessThanOrEqualTo(256));
    }

    @Example
    void tagsAsServersWriteThemAreKeptAndALaterAnswerWithoutOneForgetsThem() {
        DiscoveryCache cache = new DiscoveryCache();
        ClusterId cluster = new ClusterId("prod-1");
        cache.put(cluster, "api", Optional.of("\"6c1a9f\""), List.of());
        cache.put(cluster, "apis", Optional.of("W/\"abc\""), List.of());
        assertThat(cache.get(cluster, "api")).isPresent();
        assertThat(cache.get(cluster, "apis")).isPresent();

        cache.put(cluster, "api", Optional.of("\"bad\r\nX-Injected: 1\""), List.of());
        cache.put(cluster, "apis", Optional.empty(), List.of());

        assertThat(cache.get(cluster, "api")).isEmpty();
        assertThat(cache.get(cluster, "apis")).isEmpty();
    }
}
