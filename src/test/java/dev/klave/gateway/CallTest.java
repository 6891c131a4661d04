package dev.klave.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.audit.Channel;
import dev.klave.cluster.ClusterId;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Query;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** A call Klave means as a preview is a dry run, or it is not a call at all (fail closed). */
class CallTest {
    private static final ClusterPath OBJECT = ClusterPath.of("api", "v1", "namespaces", "team-a", "configmaps", "x#");

    private static Call call(Query query, boolean preview) {
        return new Call(new ClusterId("prod-1"), "DELETE", OBJECT, query, InetAddress.getLoopbackAddress(),
                Channel.tool("delete_resource"), preview);
    }

    @Test
    void aPreviewWithoutDryRunAllCannotBeMade() {
        assertThatThrownBy(() -> call(Query.NONE, true)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> call(Query.NONE.with("dryRun", "None"), true)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> call(Query.NONE.with("x", "dryRun=All"), true))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aPreviewCarriesTheDryRunOnItsTargetAndNamesTheObjectItself() {
        Call preview = call(Query.NONE.with("dryRun", "All"), true);

        assertThat(preview.target()).isEqualTo("/api/v1/namespaces/team-a/configmaps/x%23?dryRun=All");
        assertThat(preview.info().name()).contains("x#");
        assertThat(preview.info().verb()).isEqualTo("delete");
    }
}
