// "Sesiones" (issue 42): recorded exec and attach sessions — administrators see every one, a person
// their own — filtered by person, cluster, namespace, pod and date, each with its state as a badge
// (grabando, incompleta, truncada) and a link to play it.
import { useState } from "preact/hooks";
import { get, query } from "../api";
import { when } from "../format";
import { CardTable } from "../ui/CardTable";
import { useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { SubjectSelect } from "../ui/SubjectSelect";

export interface RecordingView {
  id: string; subject_id: string; subject: string; cluster: string; namespace: string; pod: string;
  container: string | null; command: string; tty: boolean; started_at: string; ended_at: string | null;
  state: "recording" | "complete" | "incomplete" | "truncated"; reason: string | null; bytes: number;
  width: number; height: number; exit_code: number | null;
}

export function StateBadge({ recording }: { recording: RecordingView }) {
  switch (recording.state) {
    case "recording": return <span class="pill pill-warning">en curso</span>;
    case "incomplete": return <span class="pill pill-bad" title={recording.reason ?? ""}>incompleta</span>;
    case "truncated": return <span class="pill pill-bad" title={recording.reason ?? ""}>truncada</span>;
    default: return <span class="pill pill-ok">completa</span>;
  }
}

interface Found { recording: RecordingView; at: number; line: string }

/** Search in what sessions printed: each line found links to the player at its moment. */
function Search() {
  const [text, setText] = useState("");
  const [asked, setAsked] = useState("");
  const found = useLoad(() => asked.length < 2 ? Promise.resolve([] as Found[])
    : get<Found[]>(`/api/recordings/search${query({ q: asked })}`), [asked]);
  return (
    <section class="card" aria-labelledby="search-title">
      <h2 id="search-title">Buscar en lo que se vio</h2>
      <form class="filters" role="search" onSubmit={(event) => { event.preventDefault(); setAsked(text.trim()); }}>
        <label class="field"><span>Texto</span>
          <input name="search" type="search" value={text} maxLength={200} placeholder="p. ej. Permission denied"
            onInput={(event) => setText(event.currentTarget.value)} /></label>
        <div><button type="submit" class="button">Buscar</button></div>
      </form>
      {asked.length >= 2 && (
        <Loads loaded={found} empty="Ninguna sesión mostró ese texto.">
          {(rows) => (
            <ul class="plain stack-small" data-testid="search-results">
              {rows.map((row) => (
                <li key={`${row.recording.id}-${row.at}`}>
                  <a href={`/sesiones/${encodeURIComponent(row.recording.id)}?t=${Math.max(0, Math.floor(row.at))}`}>
                    {row.recording.subject} · {row.recording.pod} · {Math.floor(row.at)} s</a>
                  <div><code class="wrap">{row.line}</code></div>
                </li>
              ))}
            </ul>
          )}
        </Loads>
      )}
    </section>
  );
}

export function SessionsScreen({ admin }: { admin: boolean }) {
  const [subject, setSubject] = useState("");
  const [cluster, setCluster] = useState("");
  const [namespace, setNamespace] = useState("");
  const [pod, setPod] = useState("");
  const [day, setDay] = useState("");
  const from = day ? new Date(`${day}T00:00:00`).toISOString() : undefined;
  const to = day ? new Date(new Date(`${day}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined;
  const list = useLoad(() => get<RecordingView[]>(`/api/recordings${query({ subject, cluster: cluster.trim(),
    namespace: namespace.trim(), pod: pod.trim(), from, to })}`), [subject, cluster, namespace, pod, day]);
  return (
    <>
      <h1 tabIndex={-1}>Sesiones</h1>
      <p class="lead">Las sesiones de <code>kubectl exec</code> y <code>attach</code> grabadas a su paso por Klave:
        lo que vio quien las abrió.{admin ? "" : " Aquí están las tuyas."}</p>
      <section class="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title" class="visually-hidden">Grabaciones</h2>
        <form class="filters" onSubmit={(event) => event.preventDefault()} aria-label="Filtros de sesiones">
          {admin && <SubjectSelect label="Persona" name="filter-subject" empty="Todas" value={subject}
            onChange={setSubject} />}
          <label class="field"><span>Cluster</span>
            <input name="filter-cluster" value={cluster} onInput={(event) => setCluster(event.currentTarget.value)} />
          </label>
          <label class="field"><span>Namespace</span>
            <input name="filter-namespace" value={namespace}
              onInput={(event) => setNamespace(event.currentTarget.value)} /></label>
          <label class="field"><span>Pod</span>
            <input name="filter-pod" value={pod} onInput={(event) => setPod(event.currentTarget.value)} /></label>
          <label class="field"><span>Día</span>
            <input type="date" name="filter-day" value={day} onInput={(event) => setDay(event.currentTarget.value)} />
          </label>
        </form>
        <Loads loaded={list} empty="Ninguna sesión grabada con estos filtros.">
          {(rows) => (
            <CardTable label="Sesiones grabadas" testId="sessions">
              <thead>
                <tr><th scope="col">Empezó</th><th scope="col">Quién</th><th scope="col">Dónde</th>
                  <th scope="col">Orden</th><th scope="col">Estado</th>
                  <th scope="col"><span class="visually-hidden">Acciones</span></th></tr>
              </thead>
              <tbody>
                {rows.map((recording) => (
                  <tr key={recording.id} data-testid={`session-${recording.id}`}>
                    <td>{when(recording.started_at)}</td>
                    <td class="wrap">{recording.subject}</td>
                    <td class="wrap">{recording.cluster} / {recording.namespace} / {recording.pod}</td>
                    <td><code class="wrap">{recording.command}</code></td>
                    <td><StateBadge recording={recording} />{recording.exit_code !== null
                      && <div class="muted small">salida {recording.exit_code}</div>}</td>
                    <td><a href={`/sesiones/${encodeURIComponent(recording.id)}`}
                      aria-label={`Ver la sesión de ${recording.subject} en ${recording.pod}`}>Ver</a></td>
                  </tr>
                ))}
              </tbody>
            </CardTable>
          )}
        </Loads>
      </section>
      <Search />
    </>
  );
}
