/**
 * The cluster gateway: what every way into a cluster shares (spec 1 §1.3, §5 "Credentials at the
 * proxy"; spec 3 §4 "Tools"). A {@link dev.klave.gateway.Call} is admitted by
 * {@link dev.klave.gateway.Gateway} — credential, owner, cluster, grant, then the audit row,
 * durable before admission completes — and reaches the cluster as its caller through
 * {@link dev.klave.gateway.Impersonation}, held among the replica's open calls
 * ({@link dev.klave.gateway.OpenCalls}) so a revocation, the owner's disable or shutdown cuts it.
 * The proxy is its HTTP adapter; {@link dev.klave.gateway.ClusterExchange} serves callers inside
 * Klave. No Vert.x, Netty or {@code http} type appears here (LayersTest), so a second way in does
 * not have to rewrite any of it.
 */
package dev.klave.gateway;
