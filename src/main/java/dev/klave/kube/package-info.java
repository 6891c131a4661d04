/**
 * What a request to a Kubernetes API server is, before it leaves Klave: a {@link
 * dev.klave.kube.ClusterPath} of decoded segments, a {@link dev.klave.kube.Query} of name/value
 * pairs, each encoded once, and {@link dev.klave.kube.ClusterUri}, the one place either becomes a
 * {@code java.net.URI}. Every way to a cluster builds its requests from these: the proxy (a
 * client's path and query, checked and forwarded as sent), the agents' tools and held writes
 * (arguments checked by their Kubernetes rules, {@link dev.klave.kube.KubeNames}), the reconciler
 * (names it read from the cluster). Nothing here concatenates text from outside into a target:
 * a {@code #} or {@code ?} in a name is a character of that name, never a fragment or a query.
 * Depends on nothing of Klave's but the messages catalogue.
 */
package dev.klave.kube;
