package dev.klave.installation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.notify.Alerts;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What administrators are told outside Klave: the notices that are warnings, each once with no
 * target, and each cluster whose last reconciliation failed, by its id; nothing else.
 */
class AdministratorAlertsTest {
    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");

    private static Cluster cluster(String id, Optional<String> lastError) {
        return new Cluster(new ClusterId(id), id, NOW, Optional.of("sealed"), Optional.of(NOW), Optional.of(NOW),
                lastError);
    }

    @Test
    void warningsAndClustersThatDoNotAnswerBecomeAlerts() {
        List<Notice> notices = List.of(
                new Notice(NoticeCode.OIDC_DISCOVERY_FAILING, NoticeLevel.WARNING, "el descubrimiento falla"),
                new Notice(NoticeCode.OIDC_LINKED_BY_EMAIL, NoticeLevel.INFO, "2 personas enlazadas por correo"),
                new Notice(NoticeCode.NOTIFY_DESTINATION_FAILING, NoticeLevel.WARNING, "el destino «ops» falla"));
        List<Cluster> clusters = List.of(cluster("prod-1", Optional.of("connection refused")),
                cluster("test-1", Optional.empty()));

        List<Alerts.Alert> alerts = new AdministratorAlerts(() -> notices, () -> clusters).get();

        assertThat(alerts).containsExactly(
                new Alerts.Alert("oidc_discovery_failing", "", "el descubrimiento falla"),
                new Alerts.Alert("notify_destination_failing", "", "el destino «ops» falla"),
                new Alerts.Alert("cluster_unreachable", "prod-1", "El cluster prod-1 no responde"));
    }

    @Test
    void nothingToTellIsNoAlert() {
        AdministratorAlerts alerts = new AdministratorAlerts(
                () -> List.of(new Notice(NoticeCode.OIDC_LINKED_BY_EMAIL, NoticeLevel.INFO, "1 persona")),
                () -> List.of(cluster("prod-1", Optional.empty())));

        assertThat(alerts.get()).isEmpty();
    }

    @Test
    void eachPassReadsTheStateAnew() {
        List<List<Cluster>> states = List.of(List.of(cluster("prod-1", Optional.of("timeout"))),
                List.of(cluster("prod-1", Optional.empty())));
        int[] pass = {0};
        AdministratorAlerts alerts = new AdministratorAlerts(List::of, () -> states.get(pass[0]++));

        assertThat(alerts.get()).extracting(Alerts.Alert::target).containsExactly("prod-1");
        assertThat(alerts.get()).as("it answers again").isEmpty();
    }
}
