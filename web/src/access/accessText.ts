// The words of access requests (issue 41): what is asked and what became of it, for the requester.
import type { AccessRequest } from "../api";
import { TIER_NAMES, when } from "../format";
import { durationText } from "./AskAccessForm";

export function askedText(request: AccessRequest): string {
  const where = request.scope === "*" ? "todo el cluster" : `el namespace ${request.scope}`;
  return `«${TIER_NAMES[request.role] ?? request.role}» sobre ${where} de ${request.cluster} durante ${
    durationText(request.minutes)}`;
}

/** One sentence for where the request stands, from the requester's side. */
export function standing(request: AccessRequest): string {
  const by = typeof request.decided_by === "string" ? request.decided_by : request.decided_by?.login ?? "—";
  switch (request.status) {
    case "pending":
      return request.first_approval
        ? `Aprobada por ${request.first_approval.by}; espera una segunda aprobación hasta el ${when(request.expires_at)}.`
        : `Espera una decisión hasta el ${when(request.expires_at)}.`;
    case "approved":
      if (request.access === "active") {
        return request.origin === "eligible" && by === request.subject.login
          ? `Activo hasta el ${when(request.grant_expires_at)}.`
          : `Aprobada por ${by}: activo hasta el ${when(request.grant_expires_at)}.`;
      }
      return request.ended_by
        ? `Terminado por ${request.ended_by} el ${when(request.ended_at)}.`
        : `Terminó el ${when(request.ended_at ?? request.grant_expires_at)}.`;
    case "denied":
      return `Denegada por ${by} el ${when(request.decided_at)}.`;
    case "cancelled":
      return `Retirada el ${when(request.decided_at)}.`;
    case "expired":
      return `Caducó el ${when(request.expires_at)} sin que nadie decidiera.`;
    default:
      return request.status;
  }
}
