// "Agentes" in /mi-cuenta (issue 31 item 6): the sessions the person opened for their agents, and
// what those agents ask of them and still waits (writes and access requests, each linked to its page).
import { get, type AgentRequest, type AgentRequests, type Me } from "../api";
import { when } from "../format";
import { useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { AgentSessionsList } from "./AgentSessions";
import { capitalized, requesterOf, whatIsAsked } from "./requestText";

/**
 * What waits for the person's decision (issue 40 item 1): their own agents' requests and, for an
 * administrator, the bots' — the decision API lists only what the caller may decide.
 */
function pending(listing: AgentRequests): AgentRequest[] {
  const all: AgentRequest[] = [...listing.write_requests, ...listing.access_requests];
  return all.filter((request) => request.status === "pending");
}

function PendingRequests({ me }: { me: Me }) {
  const requests = useLoad(() => get<AgentRequests>("/api/agents/requests"), [me.id]);
  return (
    <Loads loaded={{ ...requests, data: requests.data && pending(requests.data) }}
      empty="Nada espera tu decisión.">
      {(list) => (
        <ul class="plain stack-small" data-testid="own-agent-requests">
          {list.map((request) => (
            <li key={request.id} data-testid={`own-request-${request.id}`}>
              <a href={`/agents/requests/${encodeURIComponent(request.id)}`}>
                {request.kind === "write" ? "Escritura" : "Acceso"}: {whatIsAsked(request)}</a>
              <span class="muted small"> · {requesterOf(request)}</span>
              <span class="muted small"> · {capitalized(`caduca el ${when(request.expires_at)}`)}</span>
            </li>
          ))}
        </ul>
      )}
    </Loads>
  );
}

export function OwnAgents({ me }: { me: Me }) {
  return (
    <section class="card" aria-labelledby="agentes" data-testid="own-agents">
      <h2 id="agentes" tabIndex={-1}>Agentes</h2>
      <p class="muted">Los agentes (Claude Code, VS Code, el MCP Inspector…) que has autorizado a actuar en tu nombre, con
        los permisos que elegiste. Terminar una sesión deja sus tokens sin valor al momento.</p>
      <AgentSessionsList everyone={false} />
      <h3>Esperan tu decisión</h3>
      <PendingRequests me={me} />
    </section>
  );
}
