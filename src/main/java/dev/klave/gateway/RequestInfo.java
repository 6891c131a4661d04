package dev.klave.gateway;

import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import java.util.Optional;

/**
 * What a Kubernetes request is about, from its path, method and query, the way the API server's
 * own RequestInfo reads it: verb, resource (with subresource), namespace and name. Discovery and
 * other non-resource paths have no resource.
 */
public record RequestInfo(String verb, Optional<String> resource, Optional<String> namespace, Optional<String> name) {
    public static RequestInfo of(Method method, ClusterPath clusterPath, Query query) {
        String[] parts = clusterPath.segments().toArray(String[]::new);
        int index;
        if (parts.length >= 2 && parts[0].equals("api")) {
            index = 2;
        } else if (parts.length >= 3 && parts[0].equals("apis")) {
            index = 3;
        } else {
            return new RequestInfo(method.plainVerb(), Optional.empty(), Optional.empty(), Optional.empty());
        }
        Optional<String> namespace = Optional.empty();
        if (parts.length > index + 1 && parts[index].equals("namespaces")) {
            namespace = Optional.of(parts[index + 1]);
            if (parts.length > index + 2) {
                index += 2;
            }
        }
        if (parts.length <= index) {
            return new RequestInfo(method.plainVerb(), Optional.empty(), Optional.empty(), Optional.empty());
        }
        String resource = parts[index];
        Optional<String> name = parts.length > index + 1 ? Optional.of(parts[index + 1]) : Optional.empty();
        if (parts.length > index + 2) {
            resource = resource + "/" + parts[index + 2];
        }
        String verb = method.verb(name.isPresent(), query.watch());
        return new RequestInfo(verb, Optional.of(resource), namespace, name);
    }
}
