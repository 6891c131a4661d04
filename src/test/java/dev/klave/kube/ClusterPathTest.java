package dev.klave.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** A path reaches a cluster only as checked segments, encoded once (spec 1 §4 "Proxy"), however it was built. */
class ClusterPathTest {
    private static final URI SERVER = URI.create("https://10.0.0.1:6443");

    @Test
    void segmentsGivenOneByOneMakeAPath() {
        assertThat(ClusterPath.of("api", "v1", "namespaces", "team-a", "pods").encoded())
                .isEqualTo("/api/v1/namespaces/team-a/pods");
        assertThat(ClusterPath.of()).isEqualTo(ClusterPath.ROOT);
        assertThat(ClusterPath.ROOT.encoded()).isEqualTo("/");
        assertThat(ClusterPath.parse("/apis/apps/v1").segments()).containsExactly("apis", "apps", "v1");
    }

    /** The attack of the agent-safety review: these were a fragment, a query, another namespace. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "cm-delete-me#|/api/v1/namespaces/default/configmaps/cm-delete-me%23",
        "cm-race?x=|/api/v1/namespaces/default/configmaps/cm-race%3Fx=",
        "a b|/api/v1/namespaces/default/configmaps/a%20b",
        "ñ|/api/v1/namespaces/default/configmaps/%C3%B1",
        "a;b|/api/v1/namespaces/default/configmaps/a%3Bb",
        "web\"<>[]^`{}|/api/v1/namespaces/default/configmaps/web%22%3C%3E%5B%5D%5E%60%7B%7D",
        "system:controller:x|/api/v1/namespaces/default/configmaps/system:controller:x"})
    void aNameIsEncodedOnceAndStaysOneSegmentOfThePath(String name, String encoded) {
        ClusterPath path = ClusterPath.of("api", "v1", "namespaces", "default", "configmaps", name);
        URI uri = ClusterUri.of(SERVER, path, Query.NONE.with("dryRun", "All"));

        assertThat(path.encoded()).isEqualTo(encoded);
        assertThat(uri.getRawPath()).isEqualTo(encoded);
        assertThat(uri.getRawFragment()).isNull();
        assertThat(uri.getRawQuery()).isEqualTo("dryRun=All");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "a/b", "a%2Fb", "100%", "tab\t", "nl\n", "del\u007f", "c1\u0085"})
    void aSegmentThatIsNotOneCleanSegmentIsRefused(String segment) {
        assertThatThrownBy(() -> ClusterPath.of("api", "v1", "namespaces", segment))
                .isInstanceOfSatisfying(Refusal.class, refusal -> assertThat(refusal.kind()).isEqualTo(Message.PATH_INVALID));
    }

    @ParameterizedTest
    @ValueSource(strings = {"api", "/api//v1", "/api/./v1", "/api/../v1", "/api/v1/", "/a%2e", "/a;b", "/a#b",
        "/a\"b", "/a{b}", "/a|b", "/a^b", "/a`b", "/a[0]", "/a<b>", "/a b", "/a\\b", "/ñ"})
    void aWholePathFromAClientBreakingTheRulesIsRefused(String path) {
        assertThatThrownBy(() -> ClusterPath.parse(path)).isInstanceOf(Refusal.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/api", "/api/v1/namespaces/default/pods/web-1:8080/proxy",
        "/apis/rbac.authorization.k8s.io/v1/clusterroles/system:aggregate-to-edit", "/a@b/!$&'()*+,="})
    void aClientsPathThatPassesIsForwardedByteForByte(String path) {
        assertThat(ClusterPath.parse(path).encoded()).isEqualTo(path);
    }
}
