/**
 * A Kubernetes API server simulator for tests, faithful enough that the real kubectl v1.32 (and
 * Klave's proxy in front of it) cannot tell it from kube-apiserver for the operations Klave uses.
 *
 * <p><b>What it owns.</b> An in-memory object store (JSON trees, one global resourceVersion, a
 * bounded event history for watches), the apiserver's request pipeline (authentication by static
 * bearer token, impersonation, RBAC authorization from the stored Roles and bindings, then the
 * handler), discovery, Table printing, patches and server-side apply, and a scripted "kubelet" for
 * logs, exec, attach and port-forward. Messages and Status objects use the apiserver's English
 * wording, so tests can compare them exactly.
 *
 * <p><b>Why a hand-written HTTP/1.1 server on blocking sockets and virtual threads, not Vert.x.</b>
 * kubectl falls back from WebSocket to SPDY/3.1, which arrives as a {@code POST} with
 * {@code Upgrade: SPDY/3.1}; Vert.x 5's public {@code toNetSocket()} only takes over {@code GET}
 * and {@code CONNECT} upgrades. Owning the socket makes every upgrade the same few lines, lets a
 * fault swap the certificate or close the port, and keeps handlers plain blocking code: a watch is a
 * loop that blocks on its queue and on the socket, so back-pressure is the TCP window, and a virtual
 * thread per connection costs little. TLS is layered per connection ({@code SSLSocketFactory
 * .createSocket(socket, …)}) on a plain listener, with ALPN {@code http/1.1} only.
 *
 * <p><b>What it trusts.</b> Nothing a client says about identity: only its bearer token, and
 * Impersonate-* headers after the caller is authorized to impersonate (verb {@code impersonate} on
 * users, groups, serviceaccounts, uids or userextras), exactly as kube-apiserver checks them. RBAC
 * writes go through escalation prevention ({@code escalate}, {@code bind}), so a reconciler can
 * only hand out what it holds; {@code kubectl auth can-i} and {@code auth whoami} are answered by
 * the same authorizer.
 *
 * <p><b>What it fails the test for.</b> A header that must never come through Klave: a bearer token
 * it did not issue (a client's {@code klt_}), a cookie, {@code X-Forwarded-*}/{@code Forwarded}/
 * {@code X-Real-Ip}, {@code X-Remote-*}, impersonation with the reconciler's token, impersonation
 * other than {@code Impersonate-User: user:|bot:<login>}, {@code -Uid} and {@code -Group}, or the
 * proxy's token impersonating nobody (but for {@code GET /api}, the bootstrap's token check). The
 * request is served as kube-apiserver would; {@code HeaderGuard} records it and
 * {@code ClusterSimulator.close()} throws, listing them, so every test that starts a simulator is
 * guarded. A test that sends one on purpose takes it ({@code takeHeaderViolations()}) and checks it.
 *
 * <p><b>What it refuses or simplifies.</b> Protobuf request bodies (kubectl's typed clients:
 * {@code create configmap}, {@code create role}, {@code auth can-i}, …) are decoded for the kinds
 * listed in {@code ProtobufBodies} and refused with 415 for any other; answers are always JSON,
 * which those clients accept. Strategic merge patch and server-side apply merge lists of objects
 * by a merge key guessed from the data (name, containerPort, …) instead of reading a schema;
 * managedFields record leaf fields only. There is no admission, no field validation beyond names, no garbage collector:
 * deleting a namespace deletes its objects at once, and controllers are simulated at write time
 * (pods run and are ready, deployments and statefulsets reach their replicas, daemonsets run on the
 * one node). OpenAPI is served only as far as
 * kubectl needs to switch to server-side field validation. One custom resource is always served
 * (example.com/v1 Widget, as a CRD without printer columns would be; no CustomResourceDefinition
 * object), and events.k8s.io/v1 events are stored apart from core v1 events instead of being one
 * stored object seen through two versions. Pod logs are timed by the simulator's clock; a test
 * scripts lines and container restarts through {@code SimulatorPods}.
 *
 * <p>Files by concern: TLS ({@code CertificateAuthority}, {@code ServerIdentity}); HTTP
 * ({@code SimulatorHttpServer}, {@code HttpRequestReader}, {@code HttpExchange}); pipeline
 * ({@code ApiServer}, {@code RequestInfo}, {@code HeaderGuard}); authentication and impersonation
 * ({@code Authenticator}, {@code Impersonation}); RBAC ({@code RbacAuthorizer}, {@code BuiltInRoles}, {@code RbacEscalation},
 * {@code ReviewHandler}); protobuf bodies ({@code ProtobufBodies}); store
 * ({@code ObjectStore}, {@code ObjectMetadata}, {@code ObjectDefaults}, {@code WorkloadDefaults},
 * {@code Preconditions}); discovery ({@code Discovery},
 * {@code OpenApi}); Table ({@code Tables}); watch ({@code WatchStreamer}, {@code WatchSubscription});
 * writes ({@code ResourceHandler}, {@code Patches}, {@code FieldOwnership}); kubelet
 * ({@code PodRuntime}, {@code PodLogs}, {@code PodLogHandler}, {@code SimulatorPods}, exec and
 * port-forward over WebSocket and SPDY); faults
 * ({@code Faults}).
 */
package dev.klave.simulator;
