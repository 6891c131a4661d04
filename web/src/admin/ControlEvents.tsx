import { useEffect, useState } from "preact/hooks";
import { get, query, type ControlEvent, type Page } from "../api";
import { eventTypes, sentence } from "../eventSentence";
import { rangeProblem, toLocalInput, toRfc3339, when } from "../format";
import { FilterPanel } from "../ui/FilterPanel";
import { useMethods } from "../ui/methods";
import { navigate } from "../router";
import { useLoad } from "../ui/load";
import { SubjectSelect } from "../ui/SubjectSelect";
import { Loads } from "../ui/states";
import { Pager } from "./Pager";

interface Filters { type: string; subject: string; from: string; to: string }

/**
 * Control events as sentences ("alice deshabilitó a bob"), filtered by type, person and date. The
 * filters live in the address, and the inputs follow it (back, forward, "Quitar filtros").
 */
export function ControlEvents({ search }: { search: URLSearchParams }) {
  const applied: Filters = {
    type: search.get("type") ?? "", subject: search.get("subject") ?? "",
    from: search.get("from") ?? "", to: search.get("to") ?? "",
  };
  const page = Number(search.get("page") ?? "1") || 1;
  const key = search.toString();
  const events = useLoad(() => get<Page<ControlEvent>>(`/api/control-events${query({
    ...applied, page: page > 1 ? page : undefined,
  })}`), [key]);
  const [draft, setDraft] = useState<Filters>(applied);
  useEffect(() => setDraft(applied), [key]);
  const methods = useMethods();
  const providers = { forge: methods?.forge ? "Forge" : null, oidc: methods?.oidc ? methods.oidc_name : null };
  const problem = rangeProblem(draft.from, draft.to);
  const appliedProblem = rangeProblem(applied.from, applied.to);

  const go = (filters: Filters, target?: number) => navigate(`/admin/auditoria${query({
    vista: "eventos", type: filters.type, subject: filters.subject,
    from: toRfc3339(filters.from), to: toRfc3339(filters.to),
    page: target && target > 1 ? target : undefined,
  })}`);

  return (
    <>
      <FilterPanel id="event-filters-title" active={[applied.type, applied.subject, applied.from, applied.to]
        .filter(Boolean).length}>
        <form class="filters" onSubmit={(event) => {
          event.preventDefault();
          if (!problem) {
            go(draft);
          }
        }}>
          <label class="field"><span>Tipo</span>
            <select name="type" value={draft.type} onChange={(event) => setDraft({ ...draft, type: event.currentTarget.value })}>
              <option value="">Todos</option>
              {eventTypes(providers).map((type) => <option key={type.value} value={type.value}>{type.label}</option>)}
            </select>
          </label>
          <SubjectSelect label="Persona" name="subject" empty="Todas" value={draft.subject}
            onChange={(subject) => setDraft({ ...draft, subject })} />
          <label class="field"><span>Desde</span><input type="datetime-local" name="from" value={toLocalInput(draft.from)}
            aria-describedby={problem ? "event-range-problem" : undefined}
            onInput={(event) => setDraft({ ...draft, from: event.currentTarget.value })} /></label>
          <label class="field"><span>Hasta</span><input type="datetime-local" name="to" value={toLocalInput(draft.to)}
            aria-describedby={problem ? "event-range-problem" : undefined}
            onInput={(event) => setDraft({ ...draft, to: event.currentTarget.value })} /></label>
          {problem && <div class="alert alert-error span-all" role="alert" id="event-range-problem">{problem}</div>}
          <div class="actions">
            <button type="submit" class="button button-primary">Filtrar</button>
            <a class="button" href="/admin/auditoria?vista=eventos">Quitar filtros</a>
          </div>
        </form>
      </FilterPanel>
      <section class="card" aria-labelledby="events-title">
        <h2 id="events-title">Eventos de control</h2>
        <p class="muted">Acciones de administración y accesos a Klave.</p>
        <Loads loaded={events} labels={{ page: "Página", from: "Desde", to: "Hasta", type: "Tipo", subject: "Persona" }}>
          {(result) => (
            <>
              {result.events.length === 0 ? <p class="state state-empty">{appliedProblem ?? "Ningún evento coincide con estos filtros."}</p> : (
                <ul class="events" data-testid="control-events">
                  {result.events.map((event) => (
                    <li key={event.id} data-testid="control-event" data-type={event.type}>
                      <time dateTime={event.at}>{when(event.at, true)}</time>
                      <span class="event-sentence">{sentence(event, providers)}</span>
                      {event.client_ip && <span class="muted small"> · IP {event.client_ip}</span>}
                    </li>
                  ))}
                </ul>
              )}
              <Pager page={result.page} hasMore={result.has_more} onPage={(target) => go(applied, target)} />
            </>
          )}
        </Loads>
      </section>
    </>
  );
}
