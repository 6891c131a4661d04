// The words of the agents' requests (spec 3 §3): who asks, what, and what became of it.
import type { AgentRequest, Decider, RequestSubject } from "../api";
import { TIER_NAMES, when } from "../format";

export const STATUS: Record<string, string> = {
  pending: "pendiente",
  approved: "aprobada",
  denied: "denegada",
  expired: "caducada",
  executed: "ejecutada",
  cancelled: "retirada",
};

/** The cluster's verbs (and the tools' own) as an action a person reads. */
const VERBS: Record<string, string> = {
  create: "crear",
  update: "actualizar",
  patch: "modificar",
  apply: "aplicar",
  delete: "borrar",
  scale: "escalar",
  restart: "reiniciar",
  rollout_restart: "reiniciar",
};

export function verbText(verb: string): string {
  return VERBS[verb] ?? verb;
}

export function deciderLogin(decider: Decider): string {
  if (!decider) {
    return "—";
  }
  return typeof decider === "string" ? decider : decider.login;
}

/** A bot asks with its own credential; a person's agent asks in that person's name. */
export function requester(subject: RequestSubject, origin?: string): string {
  // Issue 41: a person asking for themselves is named, not described.
  if (origin === "person" || origin === "eligible") {
    return subject.login;
  }
  return subject.kind === "bot" ? `el bot ${subject.login}` : `el agente de ${subject.login}`;
}

/** Who asks for `request`, as the subject of a sentence. */
export function requesterOf(request: AgentRequest): string {
  return requester(request.subject, request.kind === "access" ? request.origin : undefined);
}

/** The same after "a": "al bot deploybot", "al agente de carol" (never "a el"). */
export function requesterAfterA(subject: RequestSubject, origin?: string): string {
  const who = requester(subject, origin);
  return who.startsWith("el ") ? `a${who.slice(1)}` : `a ${who}`;
}

export function scopeText(scope: string): string {
  return scope === "*" ? "todo el cluster" : `el namespace ${scope}`;
}

export function roleText(role: string): string {
  return TIER_NAMES[role] ? `${role}: ${TIER_NAMES[role]}` : role;
}

/** The object a write touches: resource/name, and where. */
export function objectText(request: { resource: string; name: string; namespace: string | null; cluster: string }): string {
  const where = request.namespace ? ` en ${request.namespace}` : "";
  return `${request.resource}/${request.name}${where} (${request.cluster})`;
}

export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What the request would do, as the end of a sentence. */
export function whatIsAsked(request: AgentRequest): string {
  if (request.kind === "write") {
    return `${verbText(request.verb)} ${objectText(request)}`;
  }
  return `«${TIER_NAMES[request.role] ?? request.role}» sobre ${scopeText(request.scope)} de ${request.cluster} durante ${
    request.minutes} minutos`;
}

/** One sentence for what became of a request, with who decided and when. */
export function outcome(request: AgentRequest): string {
  const status: string = request.status;
  const by = deciderLogin(request.decided_by);
  const at = when(request.decided_at);
  switch (request.status) {
    case "pending":
      return `Pendiente: espera una decisión hasta el ${when(request.expires_at)}.`;
    case "approved":
      if (request.kind === "access") {
        return `Aprobada por ${by} el ${at}.${request.grant_expires_at
          ? ` El permiso dura hasta el ${when(request.grant_expires_at)}.` : ""}`;
      }
      return `Aprobada por ${by} el ${at}. El agente la ejecutará cuando vuelva a llamar.`;
    case "executed":
      return `Aprobada por ${by} el ${at} y ejecutada el ${when(request.kind === "write" ? request.executed_at : null)}.`;
    case "denied":
      return `Denegada por ${by} el ${at}.`;
    case "expired":
      return `Caducada el ${when(request.expires_at)}: nadie la decidió a tiempo. El agente tendrá que pedirla otra vez.`;
    default:
      return STATUS[status] ?? status;
  }
}
