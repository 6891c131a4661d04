package dev.klave.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.audit.Channel;
import dev.klave.cluster.ClusterId;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** A call Klave means as a preview is a dry run, or it is not a call at all (fail closed). */
class CallTest {
    private static final ClusterPath OBJECT = ClusterPath.of("api", "v1", "namespaces", "team-a", "configmaps", "x#");

    private static Call call(Query query, Call.Intent intent) {
        return Call.meant(intent, new ClusterId("prod-1"), Method.DELETE, OBJECT, query,
                InetAddress.getLoopbackAddress(), Channel.tool("delete_resource"));
    }

    @Test
    void aPreviewWithoutDryRunAllCannotBeMade() {
        assertThatThrownBy(() -> call(Query.NONE, Call.Intent.PREVIEW)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> call(Query.NONE.with("dryRun", "None"), Call.Intent.PREVIEW)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> call(Query.NONE.with("x", "dryRun=All"), Call.Intent.PREVIEW))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aPreviewCarriesTheDryRunAndNamesTheObjectItself() {
        Call preview = call(Query.NONE.with("dryRun", "All"), Call.Intent.PREVIEW);

        assertThat(preview.preview()).isTrue();
        assertThat(preview.query().dryRun()).isTrue();
        assertThat(preview.path().encoded()).isEqualTo("/api/v1/namespaces/team-a/configmaps/x%23");
        assertThat(preview.info().name()).contains("x#");
        assertThat(preview.info().verb()).isEqualTo("delete");
    }
}
