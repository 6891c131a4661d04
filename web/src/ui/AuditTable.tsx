import type { AuditRow } from "../api";
import { when } from "../format";

export function AuditTable({ rows, linkDetails }: { rows: AuditRow[]; linkDetails: boolean }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Tabla (desplázala si no cabe en la pantalla)">
      <table class="audit">
        <thead>
          <tr>
            <th scope="col">Hora</th>
            <th scope="col">Usuario</th>
            <th scope="col">Cluster</th>
            <th scope="col">Namespace</th>
            <th scope="col">Verbo</th>
            <th scope="col">Recurso</th>
            <th scope="col">Estado</th>
            <th scope="col">Credencial</th>
            <th scope="col">Audit-ID</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="audit-row">
              <td>{when(row.at, true)}</td>
              <td>{row.subject ?? "—"}</td>
              <td>{row.cluster}</td>
              <td>{row.namespace ?? "—"}</td>
              <td>{row.verb}</td>
              <td>{row.resource ?? "—"}{row.name ? ` / ${row.name}` : ""}</td>
              <td><Status row={row} /></td>
              <td>{row.credential
                ? (linkDetails
                  ? <a href={`/admin/auditoria?credential=${encodeURIComponent(row.credential)}`}
                      title="Ver solo las peticiones de esta credencial"><code class="id">{row.credential}</code></a>
                  : <code class="id">{row.credential}</code>)
                : "—"}</td>
              <td><code class="id">{linkDetails ? <a href={`/admin/auditoria/${encodeURIComponent(row.id)}`}>{row.id}</a> : row.id}</code></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Status({ row }: { row: AuditRow }) {
  if (row.status === null) {
    return <span class="pill">en curso</span>;
  }
  const kind = row.status < 400 ? "pill-ok" : "pill-bad";
  return <span class={`pill ${kind}`} title={row.error ?? undefined}>{row.status}</span>;
}
