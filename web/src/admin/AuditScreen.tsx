// Audit browser: every filter of GET /api/audit, kept in the address so a view can be shared.
import { useEffect, useState } from "preact/hooks";
import { get, query, type AuditRow, type Cluster, type Page } from "../api";
import { rangeProblem, toLocalInput, toRfc3339 } from "../format";
import { FilterPanel } from "../ui/FilterPanel";
import { navigate, useLocation } from "../router";
import { AuditTable } from "../ui/AuditTable";
import { useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { ControlEvents } from "./ControlEvents";
import { Pager } from "./Pager";
import { SubjectSelect } from "../ui/SubjectSelect";

const FIELDS = ["subject", "cluster", "namespace", "verb", "resource", "credential", "channel", "tool", "session",
  "dry_run", "from", "to", "include_discovery"] as const;
type Filters = Record<(typeof FIELDS)[number], string>;

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
  const page = Number(search.get("page") ?? "1") || 1;
  const key = search.toString();
  const rows = useLoad(() => get<Page<AuditRow>>(`/api/audit${query({ ...applied, page: page > 1 ? page : undefined })}`), [key]);
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
      navigate(`/admin/auditoria${query({ ...draft, from: toRfc3339(draft.from), to: toRfc3339(draft.to) })}`);
    }
  };
  const goTo = (target: number) => {
    const next = new URLSearchParams(search);
    next.set("page", String(target));
    navigate(`/admin/auditoria?${next}`);
  };

  return (
    <>
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
              <Pager page={result.page} hasMore={result.has_more} onPage={goTo} />
            </>
          )}
        </Loads>
      </section>
    </>
  );
}
