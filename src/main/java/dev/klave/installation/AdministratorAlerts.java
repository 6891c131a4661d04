package dev.klave.installation;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.Cluster;
import dev.klave.messages.Text;
import dev.klave.notify.Alerts;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What administrators are told outside Klave (issue 41 §2; {@link Alerts} tells it once a day per
 * condition): each notice that asks them to act — a warning; information is not worth a message —
 * and each cluster whose last reconciliation failed, which does not answer. Read anew at every
 * pass, from what every replica shares.
 */
public final class AdministratorAlerts implements Supplier<List<Alerts.Alert>> {
    /** The alert's code of a cluster that does not answer; its target is the cluster's id. */
    static final String CLUSTER_UNREACHABLE = "cluster_unreachable";

    private final Supplier<List<Notice>> notices;
    private final Supplier<List<Cluster>> clusters;

    /**
     * @param notices the installation's notices ({@link Installation#notices()})
     * @param clusters the registered clusters, with their last reconciliation's error
     */
    public AdministratorAlerts(Supplier<List<Notice>> notices, Supplier<List<Cluster>> clusters) {
        this.notices = requireNonNull(notices, "notices is null");
        this.clusters = requireNonNull(clusters, "clusters is null");
    }

    @Override
    public List<Alerts.Alert> get() {
        List<Alerts.Alert> alerts = new ArrayList<>();
        notices.get().stream().filter(notice -> notice.level() == NoticeLevel.WARNING)
                .forEach(notice -> alerts.add(new Alerts.Alert(notice.code().code(), "", notice.message())));
        clusters.get().stream().filter(cluster -> cluster.lastError().isPresent())
                .forEach(cluster -> alerts.add(new Alerts.Alert(CLUSTER_UNREACHABLE, cluster.id().value(),
                        Text.NOTIFY_CLUSTER_UNREACHABLE.text(cluster.id().value()))));
        return List.copyOf(alerts);
    }
}
