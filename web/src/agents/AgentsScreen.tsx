// The agents page: the requests waiting for the caller's decision (for administrators, the bots'
// write and access requests), each with a link to its page; for administrators, every person's
// agent sessions, which they may end (issue 31 item 6).
import { get, type AccessRequest, type AgentRequests, type Me, type WriteRequest } from "../api";
import { when } from "../format";
import { CardTable } from "../ui/CardTable";
import { useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { AgentSessionsList } from "./AgentSessions";
import { requesterOf, scopeText, verbText } from "./requestText";

function RequestLink({ id, label }: { id: string; label: string }) {
  return <a class="button button-small" href={`/agents/requests/${encodeURIComponent(id)}`} aria-label={label}>Ver</a>;
}

function Writes({ list }: { list: WriteRequest[] }) {
  return (
    <CardTable label="Escrituras pendientes" testId="pending-writes">
      <thead>
        <tr>
          <th scope="col">Quién</th>
          <th scope="col">Qué</th>
          <th scope="col">Pedida</th>
          <th scope="col">Caduca</th>
          <th scope="col"><span class="visually-hidden">Acciones</span></th>
        </tr>
      </thead>
      <tbody>
        {list.map((request) => (
          <tr key={request.id} data-testid={`write-${request.id}`}>
            <td>{request.subject.login}</td>
            <td>{verbText(request.verb)} <code>{request.resource}/{request.name}</code>{request.namespace
              ? ` en ${request.namespace}` : ""} ({request.cluster})</td>
            <td>{when(request.created_at)}</td>
            <td>{when(request.expires_at)}</td>
            <td class="row-actions"><RequestLink id={request.id}
              label={`Ver la escritura de ${request.subject.login}: ${verbText(request.verb)} ${request.resource}/${request.name}`} /></td>
          </tr>
        ))}
      </tbody>
    </CardTable>
  );
}

function Accesses({ list }: { list: AccessRequest[] }) {
  return (
    <CardTable label="Accesos pendientes" testId="pending-accesses">
      <thead>
        <tr>
          <th scope="col">Quién</th>
          <th scope="col">Rol</th>
          <th scope="col">Dónde</th>
          <th scope="col">Minutos</th>
          <th scope="col">Motivo</th>
          <th scope="col">Caduca</th>
          <th scope="col"><span class="visually-hidden">Acciones</span></th>
        </tr>
      </thead>
      <tbody>
        {list.map((request) => (
          <tr key={request.id} data-testid={`access-${request.id}`}>
            <td>{request.subject.login}</td>
            <td>{request.role}</td>
            <td>{scopeText(request.scope)} de {request.cluster}</td>
            <td>{request.minutes}</td>
            <td>{request.reason}</td>
            <td>{when(request.expires_at)}</td>
            <td class="row-actions"><RequestLink id={request.id}
              label={`Ver el acceso que pide ${requesterOf(request)}: ${request.role} en ${request.cluster}`} /></td>
          </tr>
        ))}
      </tbody>
    </CardTable>
  );
}

export function AgentsScreen({ me }: { me: Me }) {
  const requests = useLoad(() => get<AgentRequests>("/api/agents/requests"), []);
  const pending = <T extends { status: string }>(list: T[] | undefined) => list?.filter((item) => item.status === "pending");
  return (
    <>
      <h1 tabIndex={-1}>Agentes</h1>
      <p class="lead">Lo que los agentes piden y espera tu decisión. Abre cada solicitud para ver los detalles y
        aprobarla o denegarla.</p>
      <section class="card" aria-labelledby="writes-title">
        <h2 id="writes-title">Escrituras pendientes</h2>
        <Loads loaded={{ ...requests, data: pending(requests.data?.write_requests) }}
          empty="Ninguna escritura espera aprobación.">
          {(list) => <Writes list={list} />}
        </Loads>
      </section>
      <section class="card" aria-labelledby="accesses-title">
        <h2 id="accesses-title">Accesos pendientes</h2>
        <Loads loaded={{ ...requests, data: pending(requests.data?.access_requests) }}
          empty="Ninguna petición de acceso espera respuesta.">
          {(list) => <Accesses list={list} />}
        </Loads>
      </section>
      {me.is_admin ? (
        <section class="card" aria-labelledby="sessions-title">
          <h2 id="sessions-title">Sesiones de agentes</h2>
          <p class="muted">Los agentes que cada persona ha autorizado a actuar en su nombre. Terminar una sesión deja sus
            tokens sin valor al momento.</p>
          <AgentSessionsList everyone={true} />
        </section>
      ) : (
        <p class="muted">Las sesiones de tus agentes están en <a href="/mi-cuenta#agentes">Mi cuenta</a>.</p>
      )}
    </>
  );
}
