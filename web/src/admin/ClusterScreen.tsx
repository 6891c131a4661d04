import { useEffect, useState } from "preact/hooks";
import { del, get, post, query, type Cluster, type Credential, type Deleted, type Grant, type Namespace, type Pass } from "../api";
import { when } from "../format";
import { confirmAction } from "../ui/confirm";
import { message, useLoad } from "../ui/load";
import { ErrorBox, Loads, Loading, retryable } from "../ui/states";
import { toast } from "../ui/toasts";
import { BootstrapSteps } from "./BootstrapSteps";
import { ClusterStatus } from "./ClusterStatus";
import { GrantsTable } from "../ui/GrantsTable";
import { ActivityChart } from "../ui/ActivityChart";
import { AccessPolicyCard } from "../access/AccessPolicyCard";
import { RecordingPolicyCard } from "./RecordingPolicyCard";

export function ClusterScreen({ id }: { id: string }) {
  const path = `/api/clusters/${encodeURIComponent(id)}`;
  const cluster = useLoad(() => get<Cluster>(path), [id]);
  // While a reconciliation may be running, the status is read again every few seconds.
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (!document.hidden) {
        cluster.reload();
      }
    }, 5000);
    return () => window.clearInterval(timer);
  }, [id]);
  const [deleted, setDeleted] = useState<Deleted | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (deleted) {
    return <DeletedReport deleted={deleted} />;
  }
  if (cluster.error && !cluster.data) {
    return (
      <>
        <h1 tabIndex={-1}>Cluster {id}</h1>
        <ErrorBox text={cluster.error.message} onRetry={retryable(cluster.error) ? cluster.reload : undefined} />
        <p><a href="/admin/clusters">Volver a los clusters</a></p>
      </>
    );
  }
  if (!cluster.data) {
    return <><h1 tabIndex={-1}>Cluster {id}</h1><Loading /></>;
  }
  const current = cluster.data;

  const reconcile = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const pass = await post<Pass>(`${path}/reconcile`);
      toast(`Reconciliación hecha: ${pass.created} creados, ${pass.updated} cambiados, ${pass.deleted} borrados.`);
    } catch (error) {
      setFailure(message(error));
    } finally {
      setBusy(false);
      cluster.reload();
    }
  };

  const remove = async () => {
    const answer = await confirmAction({
      title: `Borrar el cluster ${current.id}`,
      body: (
        <>
          <p>Klave limpiará el RBAC que gestiona dentro del cluster y borrará el cluster, <strong>todos sus permisos</strong> y las credenciales restringidas a él.</p>
          <p>No se puede deshacer.</p>
        </>
      ),
      confirmLabel: "Borrar cluster",
      danger: true,
    });
    if (!answer) {
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      setDeleted(await del<Deleted>(path));
    } catch (error) {
      setFailure(message(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <p class="breadcrumb"><a href="/admin/clusters">Clusters</a> / {current.id}</p>
      <h1 tabIndex={-1}>Cluster {current.id}</h1>
      <section class="card" aria-labelledby="state-title">
        <h2 id="state-title">Estado</h2>
        <dl class="facts">
          <dt>Nombre</dt><dd>{current.name}</dd>
          <dt>Estado</dt><dd><ClusterStatus status={current.status} /></dd>
          <dt>Dirección del proxy</dt><dd><code>{current.proxy_url}</code></dd>
          <dt>Tokens configurados</dt><dd>{when(current.tokens_set_at)}</dd>
          <dt>Última reconciliación</dt><dd data-testid="last-reconciliation">{when(current.last_reconciliation)}</dd>
          <dt>Último error</dt><dd class="error-text">{current.last_error ?? "—"}</dd>
          <dt>Versión de Kubernetes</dt><dd data-testid="kubernetes-version">{current.kubernetes_version ?? "—"}</dd>
          <dt>Herramientas de agentes</dt>
          <dd data-testid="agent-tools-support">{current.aggregated_discovery === null ? "—"
            : current.aggregated_discovery ? "disponibles"
            : <span class="error-text">no disponibles: el cluster no sirve el descubrimiento agregado (hace falta
                Kubernetes 1.27 o posterior, o 1.26 con la feature gate AggregatedDiscoveryEndpoint); kubectl
                funciona igual</span>}</dd>
        </dl>
        {failure && <div class="alert alert-error" role="alert" data-testid="cluster-action-error">
          {failure}
          {/bootstrap|tokens/i.test(failure) && (
            <a class="button button-small" href={`/api/clusters/${encodeURIComponent(current.id)}/bootstrap.yaml`}
              download="bootstrap.yaml">Descargar bootstrap.yaml</a>
          )}
        </div>}
        <div class="actions">
          <button type="button" class="button" onClick={reconcile} disabled={busy || current.status === "pending"}>
            Reconciliar ahora
          </button>
          <button type="button" class="button button-danger" onClick={remove} disabled={busy}>Borrar cluster</button>
        </div>
      </section>
      <BootstrapSteps cluster={current} onConnected={cluster.reload} />
      {current.status !== "pending" && <Namespaces path={path} />}
      <ClusterAccess id={current.id} />
      <AccessPolicyCard cluster={current.id} />
      <RecordingPolicyCard cluster={current.id} />
    </>
  );
}

function Namespaces({ path }: { path: string }) {
  const namespaces = useLoad(() => get<Namespace[]>(`${path}/namespaces`), [path]);
  return (
    <section class="card" aria-labelledby="namespaces-title">
      <h2 id="namespaces-title">Namespaces</h2>
      <p class="muted">Nivel de pod security que el cluster exige en cada namespace (<code>pod-security.kubernetes.io/enforce</code>).</p>
      <Loads loaded={namespaces} empty="El cluster no tiene namespaces.">
        {(list) => (
          <ul class="namespaces">
            {list.map((namespace) => (
              <li key={namespace.name}>
                <code>{namespace.name}</code>
                <span class={`pill ${namespace.psa_enforce ? "pill-ok" : "pill-off"}`}>{namespace.psa_enforce ?? "sin nivel"}</span>
              </li>
            ))}
          </ul>
        )}
      </Loads>
    </section>
  );
}

function DeletedReport({ deleted }: { deleted: Deleted }) {
  const report = deleted.rbac_cleanup;
  const status = { ok: "limpieza completa", error: "la limpieza falló", skipped: "limpieza omitida" }[report.status] ?? report.status;
  return (
    <>
      <h1 tabIndex={-1}>Cluster {deleted.id} borrado</h1>
      <section class="card" aria-labelledby="cleanup-title" data-testid="cleanup-report">
        <h2 id="cleanup-title">Limpieza del RBAC en el cluster</h2>
        <dl class="facts">
          <dt>Resultado</dt><dd>{status}</dd>
          <dt>Asignaciones de permisos (RoleBindings) borradas</dt><dd>{report.bindings_deleted}</dd>
          <dt>Roles de Kubernetes borrados</dt><dd>{report.roles_deleted}</dd>
          <dt>Otra reconciliación en curso</dt><dd>{report.lock_held ? "sí" : "no"}</dd>
          {report.error && <><dt>Error</dt><dd class="error-text">{report.error}</dd></>}
        </dl>
        {report.status !== "ok" && (
          <p class="alert alert-warning">Revisa el cluster: puede quedar RBAC de Klave (objetos con la etiqueta <code>app.kubernetes.io/managed-by=klave</code>) y el namespace <code>klave-system</code>.</p>
        )}
        <a class="button" href="/admin/clusters">Volver a los clusters</a>
      </section>
    </>
  );
}

/** Who can reach the cluster: its grants and the credentials restricted to it, and its audit. */
function ClusterAccess({ id }: { id: string }) {
  const grants = useLoad(() => get<Grant[]>(`/api/grants${query({ cluster: id })}`), [id]);
  // The server picks them: the active credentials restricted to this cluster, not everyone's.
  const credentials = useLoad(() => get<Credential[]>(`/api/credentials${query({ cluster: id, status: "active" })}`),
    [id]);
  const restricted = credentials.data;
  return (
    <section class="card" aria-labelledby="access-title">
      <h2 id="access-title">Accesos</h2>
      <ActivityChart filters={{ cluster: id }} label="Peticiones de las últimas 24 horas" />
      <p><a href={`/admin/auditoria${query({ cluster: id })}`}>Ver la auditoría de este cluster</a></p>
      <h3>Permisos</h3>
      <Loads loaded={grants} empty="Nadie tiene permisos en este cluster.">
        {(list) => <GrantsTable grants={list} showSubject label="Permisos en este cluster" />}
      </Loads>
      <h3>Credenciales restringidas a este cluster</h3>
      <Loads loaded={{ ...credentials, data: restricted }} empty="Ninguna credencial activa restringida a este cluster.">
        {(list) => (
          <ul data-testid="cluster-credentials">
            {list.map((credential) => <li key={credential.id}>{credential.subject_login}: {credential.name || credential.id}
              {" "}(caduca {when(credential.expires_at)})</li>)}
          </ul>
        )}
      </Loads>
    </section>
  );
}
