package dev.klave.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.audit.AuditIds;
import dev.klave.audit.Channel;
import dev.klave.cluster.ClusterId;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Query;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingAccess;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The contract every transport is held to, by the open call itself (a fake transport here): no
 * target and no impersonation before the call is registered with the stream guard; the first
 * ending is the one its row records; a cut reaches the transport with its typed reason.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenCallTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ClusterId PROD = new ClusterId("prod-1");

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingAccess.Viewer ana;
    private Gateway gateway;
    private final AuditIds ids = new AuditIds(new TestingClock());

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        ana = TestingAccess.viewer(klave, cluster);
        gateway = klave.hooks().gateway();
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    private OpenCall open() {
        Bearer bearer = klave.hooks().bearers().resolve(Bearers.token(Optional.of("Bearer " + ana.token())),
                BearerResolver.Edge.PROXY);
        Call call = new Call(PROD, "GET", ClusterPath.of("api", "v1", "namespaces", "team-a", "configmaps"),
                Query.NONE, InetAddress.getLoopbackAddress(), Channel.tool("list_resources"));
        Admission admission = gateway.admit(gateway.ending(ids.next()), bearer, call).join();
        return ((Admission.Admitted) admission).call();
    }

    private JsonNode row(String auditId) {
        return Eventually.value("the row of " + auditId + " completed", Duration.ofSeconds(5), () -> {
            JsonNode row = JSON.readTree(klave.http().get("/api/audit/" + auditId, "Cookie", ana.admin()).body());
            return row.path("status").isInt() ? Optional.of(row) : Optional.empty();
        });
    }

    @Test
    void nothingOfTheCallIsGivenOutBeforeItIsRegistered() {
        OpenCall open = open();

        assertThatThrownBy(open::target).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(open::impersonation).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(open::uri).isInstanceOf(IllegalStateException.class);
        open.register(reason -> { });
        assertThat(open.target()).isEqualTo("/api/v1/namespaces/team-a/configmaps");
        assertThat(open.impersonation()).extracting(header -> header.getKey())
                .contains("Authorization", "Impersonate-User", "Impersonate-Uid", "Impersonate-Group");
        open.answered();
        open.end(200, Optional.empty());
    }

    @Test
    void theFirstEndingIsTheOneTheRowRecords() {
        OpenCall open = open();
        open.register(reason -> { });

        open.end(499, Optional.of("cliente desconectado"));
        open.end(200, Optional.empty());

        assertThat(open.ended()).isTrue();
        JsonNode row = row(open.auditId());
        assertThat(row.get("status").asInt()).isEqualTo(499);
        assertThat(klave.hooks().openCalls().size()).as("no call left registered").isZero();
    }

    @Test
    void aCutReachesTheTransportWithItsTypedReason() {
        OpenCall open = open();
        CompletableFuture<CutReason> cut = new CompletableFuture<>();
        open.register(cut::complete);

        klave.hooks().openCalls().cutAll();

        assertThat(cut.getNow(null)).isEqualTo(CutReason.SHUTDOWN);
        open.end(101, cut.join());
        assertThat(row(open.auditId()).get("error").asText()).isEqualTo("Klave reiniciando");
        assertThat(List.of(CutReason.values())).allSatisfy(reason -> assertThat(reason.text()).isNotBlank());
    }
}
