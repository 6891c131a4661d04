// Agent sessions (spec 3 §2 "Agent session"; issue 31 item 6): a person's own in /mi-cuenta, and
// everyone's for administrators on the agents page. Each says which client, what it may do, whether
// its writes wait, when it was opened, last used and until when; an open one can be ended (after
// confirming), which stops its tokens at once.
import { useState } from "preact/hooks";
import { get, post, type AgentSession } from "../api";
import { when } from "../format";
import { CardTable } from "../ui/CardTable";
import { confirmAction } from "../ui/confirm";
import { message, useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { toast } from "../ui/toasts";
import { clientName, endReasonText, permissionText, stateText } from "./sessionText";

function EndButton({ session, everyone, onEnded }: {
  session: AgentSession; everyone: boolean; onEnded: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const whose = everyone ? `el agente de ${session.person.login}` : "tu agente";
  const end = async () => {
    if (!(await confirmAction({
      title: "Terminar la sesión del agente",
      body: <p>{clientName(session)} ({whose}) dejará de poder actuar en Klave: sus tokens dejan de valer al momento y
        lo que tenga en curso se corta. Para volver a usarlo habrá que autorizarlo otra vez.</p>,
      confirmLabel: "Terminar sesión", danger: true,
    }))) {
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const path = everyone ? "/api/agent-sessions" : "/api/me/agent-sessions";
      await post<AgentSession>(`${path}/${encodeURIComponent(session.id)}/end`);
      toast("Sesión del agente terminada.");
      onEnded();
    } catch (error) {
      setFailure(message(error));
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class="button button-small button-danger" disabled={busy} onClick={end}
        aria-label={`Terminar la sesión de ${clientName(session)}${everyone ? ` de ${session.person.login}` : ""}`}>
        Terminar</button>
      {failure && <div class="alert alert-error" role="alert">{failure}</div>}
    </>
  );
}

function SessionsTable({ sessions, everyone, onEnded }: {
  sessions: AgentSession[]; everyone: boolean; onEnded: () => void;
}) {
  return (
    <CardTable label={everyone ? "Sesiones de agentes de todos" : "Sesiones de tus agentes"} testId="agent-sessions">
      <thead>
        <tr>
          {everyone && <th scope="col">Persona</th>}
          <th scope="col">Cliente</th>
          <th scope="col">Permisos</th>
          <th scope="col">Escrituras</th>
          <th scope="col">Abierta</th>
          <th scope="col">Último uso</th>
          <th scope="col">Caduca</th>
          <th scope="col">Estado</th>
          <th scope="col"><span class="visually-hidden">Acciones</span></th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((session) => (
          <tr key={session.id} data-testid={`session-${session.id}`}>
            {everyone && <td>{session.person.login}</td>}
            <td>{clientName(session)}{session.client.name && <><br /><code class="id">{session.client.id}</code></>}</td>
            <td>
              <ul class="plain">
                {session.permissions.map((permission) => (
                  <li key={`${permission.cluster}/${permission.role}/${permission.scope}`}>{permissionText(permission)}</li>
                ))}
              </ul>
            </td>
            <td>{session.writes_need_approval ? "esperan aprobación" : "sin aprobación"}</td>
            <td>{when(session.created_at)}</td>
            <td>{session.last_used_at ? when(session.last_used_at) : "nunca"}</td>
            <td>{when(session.expires_at)}</td>
            <td data-testid="session-state">{stateText(session)}
              {endReasonText(session) && <><br /><span class="muted small">{endReasonText(session)}</span></>}</td>
            <td>
              {session.state === "open" && (
                <div class="row-actions"><EndButton session={session} everyone={everyone} onEnded={onEnded} /></div>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </CardTable>
  );
}

/** {@code everyone}: the administrators' list of every person's sessions; otherwise the caller's own. */
export function AgentSessionsList({ everyone }: { everyone: boolean }) {
  const sessions = useLoad(() => get<AgentSession[]>(everyone ? "/api/agent-sessions" : "/api/me/agent-sessions"),
    [everyone]);
  return (
    <Loads loaded={sessions} empty={everyone ? "Nadie ha autorizado todavía a ningún agente."
      : "No has autorizado a ningún agente. Cuando un agente (Claude Code, VS Code…) te pida acceso, lo verás aquí."}>
      {(list) => <SessionsTable sessions={list} everyone={everyone} onEnded={sessions.reload} />}
    </Loads>
  );
}
