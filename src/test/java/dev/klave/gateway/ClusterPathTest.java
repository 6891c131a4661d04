package dev.klave.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A path reaches a cluster only as checked segments (spec 1 §4 "Proxy"), however it was built. */
class ClusterPathTest {
    @Test
    void segmentsGivenOneByOneMakeAPath() {
        assertThat(ClusterPath.of("api", "v1", "namespaces", "team-a", "pods").value())
                .isEqualTo("/api/v1/namespaces/team-a/pods");
        assertThat(ClusterPath.of()).isEqualTo(ClusterPath.ROOT);
        assertThat(new ClusterPath("/apis/apps/v1").segments()).containsExactly("apis", "apps", "v1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "a/b", "a%2Fb", "a\\b", "a;b", "a b", "ñ", "tab\t"})
    void aSegmentThatIsNotOneCleanSegmentIsRefused(String segment) {
        assertThatThrownBy(() -> ClusterPath.of("api", "v1", "namespaces", segment))
                .isInstanceOfSatisfying(Refusal.class, refusal -> assertThat(refusal.kind()).isEqualTo(Message.PATH_INVALID));
    }

    @ParameterizedTest
    @ValueSource(strings = {"api", "/api//v1", "/api/./v1", "/api/../v1", "/api/v1/", "/a%2e", "/a;b"})
    void aWholePathBreakingTheRulesIsRefused(String path) {
        assertThatThrownBy(() -> new ClusterPath(path)).isInstanceOf(Refusal.class);
    }
}
