import { get, query, type AuditRow, type Credential } from "../api";
import { useLoad } from "./load";
import { when } from "../format";
import { CardTable } from "./CardTable";
import { useSessionNames } from "./sessionNames";

export function AuditTable({ rows, linkDetails, label = "Peticiones" }: {
  rows: AuditRow[]; linkDetails: boolean; label?: string;
}) {
  // Credentials by their names (and owners), not their ids: the id stays one click away, in the
  // filter link's title and on the row's own page. Only this page's credentials are asked for, by
  // id (issue 32: not the whole list of 20,000); a person is told of their own, administrators all.
  const shown = [...new Set(rows.flatMap((row) => row.credential ? [row.credential] : []))].slice(0, 100);
  const credentials = useLoad(() => shown.length === 0 ? Promise.resolve([] as Credential[])
    : get<Credential[]>(`/api/credentials?${shown.map((id) => `id=${encodeURIComponent(id)}`).join("&")}`),
  [shown.join(",")]);
  const named = new Map((credentials.data ?? []).map((credential) => [credential.id, credential]));
  const credentialName = (id: string) => {
    const found = named.get(id);
    if (!found) {
      return <code class="id">{id}</code>;
    }
    return <>{found.name || "sin nombre"}{linkDetails && <span class="muted small"> · {found.subject_login}</span>}</>;
  };
  const sessions = useSessionNames(rows.some((row) => row.session !== null));
  return (
    <CardTable label={label} className="audit">
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
            <th scope="col">Canal</th>
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
              <td>{row.verb}{row.dry_run && <> <span class="pill" data-testid="audit-dry-run"
                title="Enviada con dryRun=All: no cambió nada">simulación</span></>}</td>
              <td>{row.resource ?? "—"}{row.name ? ` / ${row.name}` : ""}</td>
              <td><Status row={row} /></td>
              <td>{row.credential
                ? (linkDetails
                  ? <a href={`/admin/auditoria?credential=${encodeURIComponent(row.credential)}`} data-testid="audit-credential"
                      title={`Ver solo las peticiones de esta credencial (${row.credential})`}>{credentialName(row.credential)}</a>
                  : <span title={row.credential}>{credentialName(row.credential)}</span>)
                : "—"}</td>
              <td data-testid="audit-channel"><ChannelCell row={row} linkDetails={linkDetails} sessions={sessions} /></td>
              <td><code class="id">{linkDetails ? <a href={`/admin/auditoria/${encodeURIComponent(row.id)}`}>{row.id}</a> : row.id}</code></td>
            </tr>
          ))}
        </tbody>
    </CardTable>
  );
}

/** How a request came, in words: "Proxy", or "Herramienta <name>" for an agent's tool (spec 3). */
export function channelText(row: AuditRow): string {
  return row.channel === "tool" ? `Herramienta ${row.tool ?? ""}`.trim() : "Proxy";
}

// A tool's name and its session each lead to the requests that share them, as a credential does.
function ChannelCell({ row, linkDetails, sessions }: {
  row: AuditRow; linkDetails: boolean; sessions: Map<string, string>;
}) {
  if (row.channel !== "tool") {
    return <span>Proxy</span>;
  }
  const tool = <>Herramienta <code>{row.tool}</code></>;
  const named = row.session ? sessions.get(row.session) : undefined;
  const session = row.session && (named
    ? <span title={row.session} data-testid="audit-session-name">{named}</span>
    : <code class="id">{row.session}</code>);
  return (
    <span>
      {linkDetails
        ? <a href={`/admin/auditoria${query({ channel: "tool", tool: row.tool })}`}
            title="Ver solo las peticiones de esta herramienta">{tool}</a>
        : tool}
      {session && <span class="muted small"> · {named ? "" : "sesión "}{linkDetails
        ? <a href={`/admin/auditoria${query({ session: row.session })}`}
            title={`Ver solo las peticiones de esta sesión del agente (${row.session})`}>{session}</a>
        : session}</span>}
    </span>
  );
}

function Status({ row }: { row: AuditRow }) {
  if (row.status === null) {
    return <span class="pill">en curso</span>;
  }
  const kind = row.status < 400 ? "pill-ok" : "pill-bad";
  return <span class={`pill ${kind}`} title={row.error ?? undefined}>{row.status}</span>;
}
