/**
 * The Kubernetes proxy: {@code /clusters/<id>/<Kubernetes API path>} (spec 1 §1.3, §4 "Proxy",
 * §5 "Credentials at the proxy") — the HTTP adapter onto {@link dev.klave.gateway}, which admits,
 * audits and cuts every call; this package keeps what is HTTP's: the path and header rules,
 * forwarding with back-pressure, upgrades, and each credential's share of connections.
 *
 * <p>Delegation: the client proves who it is with a {@code klt_} credential; Klave then calls the
 * cluster with its own proxy token and asks the API server to act as {@code user:<login>} or
 * {@code bot:<login>} (Impersonate-User, -Uid, -Group), so the cluster's RBAC decides what the
 * request may do. Fails closed: a path that is not exactly a clean Kubernetes path, any
 * Impersonate header from the client, a credential that does not check out, a cluster certificate
 * not signed by the registered CA, or an audit row that cannot be written all stop the request
 * before a byte reaches the cluster. The bytes forwarded are the bytes checked; cookies, the
 * client's Authorization and X-Forwarded-* never leave Klave.
 */
package dev.klave.proxy;
