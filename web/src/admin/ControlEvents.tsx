import { useEffect, useState } from "preact/hooks";
import { get, query, type ControlEvent, type Page, type Subject } from "../api";
import { EVENT_TYPES, sentence } from "../eventSentence";
import { rfc3339, when } from "../format";
import { navigate } from "../router";
import { useLoad } from "../ui/load";
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
  const subjects = useLoad(() => get<Subject[]>("/api/subjects"), []);
  const [draft, setDraft] = useState<Filters>(applied);
  useEffect(() => setDraft(applied), [key]);

  const go = (filters: Filters, target?: number) => navigate(`/admin/auditoria${query({
    vista: "eventos", type: filters.type, subject: filters.subject,
    from: filters.from && (/Z$|[+-]\d\d:\d\d$/.test(filters.from) ? filters.from : rfc3339(filters.from)),
    to: filters.to && (/Z$|[+-]\d\d:\d\d$/.test(filters.to) ? filters.to : rfc3339(filters.to)),
    page: target && target > 1 ? target : undefined,
  })}`);

  return (
    <>
      <section class="card" aria-labelledby="event-filters-title">
        <h2 id="event-filters-title">Filtros</h2>
        <form class="filters" onSubmit={(event) => {
          event.preventDefault();
          go(draft);
        }}>
          <label class="field"><span>Tipo</span>
            <select name="type" value={draft.type} onChange={(event) => setDraft({ ...draft, type: event.currentTarget.value })}>
              <option value="">Todos</option>
              {EVENT_TYPES.map((type) => <option key={type.value} value={type.value}>{type.label}</option>)}
            </select>
          </label>
          <label class="field"><span>Persona</span>
            <select name="subject" value={draft.subject} onChange={(event) => setDraft({ ...draft, subject: event.currentTarget.value })}>
              <option value="">Todas</option>
              {(subjects.data ?? []).map((item) => <option key={item.id} value={item.id}>{item.login}</option>)}
            </select>
          </label>
          <label class="field"><span>Desde</span><input type="datetime-local" name="from" value={draft.from.slice(0, 16)}
            onInput={(event) => setDraft({ ...draft, from: event.currentTarget.value })} /></label>
          <label class="field"><span>Hasta</span><input type="datetime-local" name="to" value={draft.to.slice(0, 16)}
            onInput={(event) => setDraft({ ...draft, to: event.currentTarget.value })} /></label>
          <div class="actions">
            <button type="submit" class="button button-primary">Filtrar</button>
            <a class="button" href="/admin/auditoria?vista=eventos">Quitar filtros</a>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="events-title">
        <h2 id="events-title">Eventos de control</h2>
        <p class="muted">Acciones de administración y accesos a Klave.</p>
        <Loads loaded={events}>
          {(result) => (
            <>
              {result.events.length === 0 ? <p class="state state-empty">Ningún evento coincide con estos filtros.</p> : (
                <ul class="events" data-testid="control-events">
                  {result.events.map((event) => (
                    <li key={event.id} data-testid="control-event" data-type={event.type}>
                      <time dateTime={event.at}>{when(event.at, true)}</time>
                      <span class="event-sentence">{sentence(event)}</span>
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
