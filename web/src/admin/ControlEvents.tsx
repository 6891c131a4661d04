import { get, query, type ControlEvent, type Page } from "../api";
import { when } from "../format";
import { navigate } from "../router";
import { useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { Pager } from "./Pager";

export function ControlEvents({ page }: { page: number }) {
  const events = useLoad(() => get<Page<ControlEvent>>(`/api/control-events${query({ page: page > 1 ? page : undefined })}`), [page]);
  return (
    <section class="card" aria-labelledby="events-title">
      <h2 id="events-title">Eventos de control</h2>
      <p class="muted">Acciones de administración y accesos a Klave.</p>
      <Loads loaded={events}>
        {(result) => (
          <>
            {result.events.length === 0 ? <p class="state state-empty">Todavía no hay eventos.</p> : (
              <div class="table-wrap" tabIndex={0} role="region" aria-label="Tabla (desplázala si no cabe en la pantalla)">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Hora</th>
                      <th scope="col">Evento</th>
                      <th scope="col">Quién</th>
                      <th scope="col">Sobre</th>
                      <th scope="col">Detalles</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.events.map((event) => (
                      <tr key={event.id} data-testid="control-event">
                        <td>{when(event.at, true)}</td>
                        <td><code>{event.type}</code></td>
                        <td>{event.actor?.login ?? (event.via ? `automático (${event.via})` : "—")}</td>
                        <td>{event.target?.login ?? "—"}</td>
                        <td class="small">
                          {[event.via && `vía ${event.via}`, event.reason && `motivo ${event.reason}`, event.client_ip && `IP ${event.client_ip}`,
                            ...Object.entries(event.details ?? {}).map(([key, value]) => `${key}: ${value}`)]
                            .filter(Boolean).join(" · ") || "—"}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Pager page={result.page} hasMore={result.has_more}
              onPage={(target) => navigate(`/admin/auditoria?vista=eventos&page=${target}`)} />
          </>
        )}
      </Loads>
    </section>
  );
}
