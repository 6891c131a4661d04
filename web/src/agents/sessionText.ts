// The words of agent sessions (spec 3 §2 "Agent session"): what a session may do, and what became of it.
import type { AgentPermission, AgentSession } from "../api";
import { when } from "../format";
import { roleText, scopeText } from "./requestText";

/** "view: ver (solo lectura) en todo el cluster de prod-1". */
export function permissionText(permission: AgentPermission): string {
  return `${roleText(permission.role)}, en ${scopeText(permission.scope)} de ${permission.cluster}`;
}

/** The client as people know it: the name it declared, else its id. */
export function clientName(session: Pick<AgentSession, "client">): string {
  return session.client.name ?? session.client.id;
}

/** The session's state as one short phrase, with when it ended or expired. */
export function stateText(session: AgentSession): string {
  switch (session.state) {
    case "open":
      return "abierta";
    case "expired":
      return `caducada el ${when(session.expires_at)}`;
    default:
      return `terminada el ${when(session.ended_at)}`;
  }
}

/** Why an ended session ended, as a sentence ("Cuenta deshabilitada."), or null. */
export function endReasonText(session: AgentSession): string | null {
  const reason = session.state === "ended" ? session.end_reason?.trim() : null;
  return reason ? `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.` : null;
}
