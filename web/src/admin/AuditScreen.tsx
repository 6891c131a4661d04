// Audit browser: every filter of GET /api/audit, kept in the address so a view can be shared. Pages
// follow the API's cursor (issue 40 item 2): rows arriving meanwhile never push a row from one page
// onto the next, and an address with its cursor still shows that page.
import { useEffect, useState } from "preact/hooks";
import { get, query, type AuditRow, type Cluster, type Page } from "../api";
import { rangeProblem, toLocalInput, toRfc3339 } from "../format";
import { FilterPanel } from "../ui/FilterPanel";
import { navigate, useLocation } from "../router";
import { ActivityChart } from "../ui/ActivityChart";
import { AuditTable } from "../ui/AuditTable";
import { useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { ControlEvents } from "./ControlEvents";
import { SubjectSelect } from "../ui/SubjectSelect";

const FIELDS = ["subject", "cluster", "namespace", "verb", "resource", "credential", "channel", "tool", "session",
  "dry_run", "from", "to", "include_discovery"] as const;
type Filters = Record<(typeof FIELDS)[number], string>;
/** What else the address may carry: the view, the page's cursor. */
const OTHER = new Set(["vista", "cursor"]);

/** Time ranges one click away, ending now. */
const PRESETS: { label: string; since: (now: Date) => Date }[] = [
  { label: "Última hora", since: (now) => new Date(now.getTime() - 3_600_000) },
  { label: "Hoy", since: (now) => new Date(now.getFullYear(), now.getMonth(), now.getDate()) },
  { label: "7 días", since: (now) => new Date(now.getTime() - 7 * 86_400_000) },
];

/** The address's parameters this screen does not know: said, not silently dropped. */
function unknownParameters(search: URLSearchParams, known: readonly string[]): string[] {
  return [...new Set([...search.keys()].filter((name) => !known.includes(name) && !OTHER.has(name)))];
}

export function AuditScreen() {
  const { search } = useLocation();
  const view = search.get("vista") === "eventos" ? "events" : "requests";
  return (
    <>
      <h1 tabIndex={-1}>Auditoría</h1>
      <nav class="tabs" aria-label="Vistas de auditoría">
        <a href="/admin/auditoria" aria-current={view === "requests" ? "page" : undefined}>Peticiones a los clusters</a>
        <a href="/admin/auditoria?vista=eventos" aria-current={view === "events" ? "page" : undefined}>Eventos de control</a>
      </nav>
      {view === "events" ? <ControlEvents search={search} /> : <Requests search={search} />}
    </>
  );
}

function Requests({ search }: { search: URLSearchParams }) {
  const applied = Object.fromEntries(FIELDS.map((field) => [field, search.get(field) ?? ""])) as Filters;
  const cursor = search.get("cursor") ?? "";
  const key = search.toString();
  const rows = useLoad(() => get<Page<AuditRow>>(`/api/audit${query({ ...applied, cursor: cursor || undefined })}`), [key]);
  const unknown = unknownParameters(search, FIELDS);
  const clusters = useLoad(() => get<Cluster[]>("/api/clusters"), []);
  const [draft, setDraft] = useState<Filters>(applied);
  // The inputs follow the address: after "Quitar filtros", back and forward they show what filters the rows.
  useEffect(() => setDraft(applied), [key]);
  const set = (field: keyof Filters) => (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) =>
    setDraft({ ...draft, [field]: event.currentTarget.value });

  const problem = rangeProblem(draft.from, draft.to);
  const appliedProblem = rangeProblem(applied.from, applied.to);
  const apply = (event: Event) => {
    event.preventDefault();
    if (!problem) {
      // Verbs are lower case in every row (get, list, create…): "GET" finds them too.
      navigate(`/admin/auditoria${query({ ...draft, verb: draft.verb.trim().toLowerCase(), from: toRfc3339(draft.from),
        to: toRfc3339(draft.to) })}`);
    }
  };
  const withRange = (since: Date) => `/admin/auditoria${query({ ...applied, from: since.toISOString(), to: "" })}`;
  const firstPage = `/admin/auditoria${query({ ...applied })}`;

  return (
    <>
      {unknown.length > 0 && (
        <p class="alert alert-warning" role="status" data-testid="audit-unknown-parameters">
          La dirección lleva {unknown.length === 1 ? "un parámetro" : "parámetros"} que esta pantalla no
          entiende y no aplica: {unknown.map((name) => `«${name}»`).join(", ")}.</p>)}
      <nav class="presets" aria-label="Periodo">
        <span class="muted small">Periodo:</span>
        {PRESETS.map((preset) => (
          <a key={preset.label} class="button button-small" href={withRange(preset.since(new Date()))}
            data-testid="audit-preset">{preset.label}</a>
        ))}
      </nav>
      <FilterPanel id="filters-title" active={FIELDS.filter((field) => applied[field]).length}>
        <form class="filters" onSubmit={apply}>
          <SubjectSelect label="Usuario" name="subject" empty="Todos" value={draft.subject}
            onChange={(subject) => setDraft({ ...draft, subject })} />
          <label class="field"><span>Cluster</span>
            <select name="cluster" value={draft.cluster} onChange={set("cluster")}>
              <option value="">Todos</option>
              {(clusters.data ?? []).map((item) => <option key={item.id} value={item.id}>{item.id}</option>)}
            </select>
          </label>
          <label class="field"><span>Namespace</span><input name="namespace" value={draft.namespace} onInput={set("namespace")} /></label>
          <label class="field"><span>Verbo</span><input name="verb" value={draft.verb} placeholder="get, list, create…" onInput={set("verb")} /></label>
          <label class="field"><span>Recurso</span><input name="resource" value={draft.resource} placeholder="pods, pods/exec…" onInput={set("resource")} /></label>
          <label class="field"><span>Credencial</span><input name="credential" value={draft.credential} onInput={set("credential")} /></label>
          <label class="field"><span>Canal</span>
            <select name="channel" value={draft.channel} onChange={set("channel")}>
              <option value="">Todos</option>
              <option value="proxy">Proxy</option>
              <option value="tool">Herramientas de agentes</option>
            </select>
          </label>
          <label class="field"><span>Simulaciones</span>
            <select name="dry_run" value={draft.dry_run} onChange={set("dry_run")}>
              <option value="">Todas las peticiones</option>
              <option value="true">Solo simulaciones (dryRun)</option>
              <option value="false">Sin simulaciones</option>
            </select>
          </label>
          <label class="field"><span>Herramienta</span><input name="tool" value={draft.tool} placeholder="list_resources, get_logs…" onInput={set("tool")} /></label>
          <label class="field"><span>Sesión del agente</span><input name="session" value={draft.session} onInput={set("session")} /></label>
          <label class="field"><span>Desde</span><input type="datetime-local" name="from" value={toLocalInput(draft.from)}
            aria-describedby={problem ? "range-problem" : undefined} onInput={set("from")} /></label>
          <label class="field"><span>Hasta</span><input type="datetime-local" name="to" value={toLocalInput(draft.to)}
            aria-describedby={problem ? "range-problem" : undefined} onInput={set("to")} /></label>
          {problem && <div class="alert alert-error span-all" role="alert" id="range-problem">{problem}</div>}
          <label class="check">
            <input type="checkbox" name="include_discovery" checked={draft.include_discovery === "true"}
              onChange={(event) => setDraft({ ...draft, include_discovery: event.currentTarget.checked ? "true" : "" })} />
            Incluir descubrimiento y fallos de autenticación
          </label>
          <div class="actions">
            <button type="submit" class="button button-primary">Filtrar</button>
            <a class="button" href="/admin/auditoria">Quitar filtros</a>
          </div>
        </form>
      </FilterPanel>
      <section class="card" aria-labelledby="rows-title">
        <h2 id="rows-title">Peticiones</h2>
        <ActivityChart filters={Object.fromEntries(Object.entries(applied).filter(([, value]) => value))}
          label={applied.from || applied.to ? "En el periodo elegido" : "Últimas 24 horas"} />
        <Loads loaded={rows} labels={{ page: "Página", from: "Desde", to: "Hasta", subject: "Usuario", cluster: "Cluster",
          namespace: "Namespace", verb: "Verbo", resource: "Recurso", credential: "Credencial", channel: "Canal",
          dry_run: "Simulaciones" }}>
          {(result) => (
            <>
              <div class="actions">
                <p data-testid="audit-total">{result.total_capped ? "Más de 10 000 peticiones"
                  : result.total === 1 ? "1 petición" : `${result.total ?? 0} peticiones`} con estos filtros</p>
                <a class="button button-small" href={`/api/audit/export${query({ ...applied, format: "csv" })}`}
                  download="klave-audit.csv">Exportar CSV</a>
                <a class="button button-small" href={`/api/audit/export${query({ ...applied, format: "jsonl" })}`}
                  download="klave-audit.jsonl">Exportar JSON lines</a>
              </div>
              {result.events.length === 0
                ? <p class="state state-empty">{appliedProblem ?? "Ninguna petición coincide con estos filtros."}</p>
                : <AuditTable rows={result.events} linkDetails />}
              {(cursor || result.next_cursor) && (
                <nav class="pager" aria-label="Páginas">
                  {cursor
                    ? <a class="button button-small" href={firstPage} data-testid="audit-first-page">« Las más recientes</a>
                    : <span />}
                  {result.next_cursor
                    ? <a class="button button-small" data-testid="audit-next-page"
                        href={`/admin/auditoria${query({ ...applied, cursor: result.next_cursor })}`}>Siguiente →</a>
                    : <span class="muted small">No hay más</span>}
                </nav>)}
            </>
          )}
        </Loads>
      </section>
    </>
  );
}
