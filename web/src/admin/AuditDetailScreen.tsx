import { get, type AuditRow } from "../api";
import { when } from "../format";
import { useLoad } from "../ui/load";
import { channelText } from "../ui/AuditTable";
import { useSessionNames } from "../ui/sessionNames";
import { ErrorBox, Loading, retryable } from "../ui/states";

export function AuditDetailScreen({ id }: { id: string }) {
  const row = useLoad(() => get<AuditRow>(`/api/audit/${encodeURIComponent(id)}`), [id]);
  const sessions = useSessionNames(Boolean(row.data?.session));
  return (
    <>
      <p class="breadcrumb"><a href="/admin/auditoria">Auditoría</a> / {id}</p>
      <h1 tabIndex={-1}>Petición {id}</h1>
      {row.error ? <ErrorBox text={row.error.message} onRetry={retryable(row.error) ? row.reload : undefined} />
        : !row.data ? <Loading /> : (
        <section class="card" data-testid="audit-detail">
          <dl class="facts">
            <dt>Audit-ID</dt><dd><code>{row.data.id}</code></dd>
            <dt>Hora</dt><dd>{when(row.data.at, true)}</dd>
            <dt>Terminó</dt><dd>{when(row.data.completed_at, true)}</dd>
            <dt>Usuario</dt><dd>{row.data.subject ?? "—"}</dd>
            <dt>Credencial</dt><dd><code>{row.data.credential ?? "—"}</code></dd>
            {/\/(exec|attach)$/.test(row.data.path.split("?")[0]) && <><dt>Grabación</dt><dd data-testid="audit-recording">
              <a href={`/sesiones/${encodeURIComponent(row.data.id)}`}>Ver la sesión grabada</a></dd></>}
            {row.data.access_request && <><dt>Con el acceso</dt><dd data-testid="audit-access-request">pedido en la{" "}
              <a href={`/acceso/solicitudes/${encodeURIComponent(row.data.access_request)}`}>solicitud
                {" "}{row.data.access_request}</a></dd></>}
            <dt>Canal</dt><dd data-testid="audit-channel">{channelText(row.data)}</dd>
            {row.data.channel === "tool" && <>
              <dt>Sesión del agente</dt>
              <dd data-testid="audit-session">{row.data.session
                ? <>{sessions.get(row.data.session) && <>{sessions.get(row.data.session)} </>}
                  <code class="wrap">{row.data.session}</code></>
                : "ninguna: la herramienta se llamó con la credencial de un bot"}</dd>
            </>}
            <dt>Cluster</dt><dd>{row.data.cluster}</dd>
            <dt>Namespace</dt><dd>{row.data.namespace ?? "—"}</dd>
            <dt>Verbo</dt><dd>{row.data.verb}{row.data.dry_run ? " (simulación: enviada con dryRun=All, no cambió nada)" : ""}</dd>
            <dt>Recurso</dt><dd>{row.data.resource ?? "—"}{row.data.name ? ` / ${row.data.name}` : ""}</dd>
            <dt>Ruta</dt><dd><code class="wrap">{row.data.path}</code></dd>
            <dt>Estado HTTP</dt><dd data-testid="audit-status">{row.data.status ?? "en curso"}</dd>
            <dt>Error</dt><dd class="error-text">{row.data.error ?? "—"}</dd>
            <dt>IP del cliente</dt><dd>{row.data.client_ip ?? "—"}</dd>
          </dl>
        </section>
      )}
    </>
  );
}
