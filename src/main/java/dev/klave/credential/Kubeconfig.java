package dev.klave.credential;

import dev.klave.cluster.ClusterId;
import dev.klave.config.BaseUrl;
import dev.klave.http.EdgeMap;
import java.util.List;
import java.util.Optional;

/**
 * The kubeconfig delivered with a credential: one cluster and context per cluster it can reach,
 * each pointing at {@code {base_url}/clusters/<id>}, all with the same {@code klt_} token.
 */
final class Kubeconfig {
    private Kubeconfig() {}

    static String render(BaseUrl baseUrl, Optional<String> caData, String user, List<ClusterId> clusters,
            String token) {
        StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: Config\nclusters:\n");
        for (ClusterId cluster : clusters) {
            yaml.append("- name: ").append(cluster).append('\n')
                    .append("  cluster:\n")
                    .append("    server: ").append(baseUrl.resolve(EdgeMap.CLUSTERS + "/" + cluster)).append('\n');
            caData.ifPresent(data -> yaml.append("    certificate-authority-data: ").append(data).append('\n'));
        }
        yaml.append("contexts:\n");
        for (ClusterId cluster : clusters) {
            yaml.append("- name: ").append(cluster).append('\n')
                    .append("  context:\n")
                    .append("    cluster: ").append(cluster).append('\n')
                    .append("    user: ").append(user).append('\n');
        }
        yaml.append("current-context: ").append(clusters.getFirst()).append('\n')
                .append("users:\n")
                .append("- name: ").append(user).append('\n')
                .append("  user:\n")
                .append("    token: ").append(token).append('\n')
                .append("preferences: {}\n");
        return yaml.toString();
    }
}
