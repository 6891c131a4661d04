// Control events as Spanish sentences (what happened, who did it, to whom), not type codes.
import type { ControlEvent } from "./api";

const VIA: Record<string, string> = {
  password: "con contraseña",
  forge: "con Forge",
  oidc: "con OIDC",
  email: "por su correo",
  cli: "desde la línea de órdenes",
  api: "desde la web o la API",
  "forge-sync": "la sincronización con Forge",
  "forge-webhook": "el webhook de Forge",
};

const PURPOSE: Record<string, string> = { invitation: "su invitación", reset: "su enlace de restablecimiento" };

function text(value: unknown): string {
  return Array.isArray(value) ? value.join(", ") : value === true ? "sí" : value === false ? "no" : String(value ?? "");
}

/** The sentence for one event; unknown types fall back to their code, never to nothing. */
export function sentence(event: ControlEvent): string {
  const actor = event.actor?.login;
  const target = event.target?.login ?? "alguien";
  const who = actor ?? (event.via && VIA[event.via] ? VIA[event.via] : "Klave");
  const d = event.details ?? {};
  switch (event.type) {
    case "login.success":
      return `${target} entró ${VIA[event.via ?? ""] ?? ""}`.trim();
    case "login.failure":
      return `Entrada fallida${event.target ? ` de ${target}` : d.login ? ` como «${text(d.login)}»` : ""} ${VIA[event.via ?? ""] ?? ""}: ${event.reason ?? "motivo desconocido"}`.replace(/ +:/, ":");
    case "link.complete":
      return `${target} usó ${PURPOSE[event.reason ?? ""] ?? "su enlace"} ${VIA[event.via ?? ""] ?? ""}`.trim();
    case "user.create":
      return `${who} dio de alta a ${target}`;
    case "bot.create":
      return `${who} creó el bot ${target}`;
    case "user.update":
      return `${who} cambió los datos de ${target}${d.is_admin === "true" || d.is_admin === true ? " (ahora es administrador)"
        : d.is_admin === "false" || d.is_admin === false ? " (ya no es administrador)" : ""}`;
    case "user.reset_link":
      return `${who} generó un enlace nuevo para ${target}`;
    case "user.break_glass":
      return `${target} quedó marcada como cuenta de emergencia ${VIA[event.via ?? ""] ?? ""}`.trim();
    case "user.break_glass_removed":
      return `${target} dejó de ser cuenta de emergencia ${VIA[event.via ?? ""] ?? ""}`.trim();
    case "user.disable":
      return `${actor ?? (event.via ? VIA[event.via] ?? event.via : "Klave")} deshabilitó a ${target}`;
    case "user.enable":
      return `${who} habilitó a ${target}`;
    case "user.logout":
      return `${who} cerró las sesiones de ${target}`;
    case "user.password_change":
      return `${target} cambió su contraseña`;
    case "user.forge_unlink":
      return `${who} desvinculó a ${target} de Forge`;
    case "user.oidc_unlink":
      return `${who} desvinculó a ${target} de OIDC`;
    case "oidc.link":
      return `${target} quedó vinculada con OIDC por su correo${d.invites_revoked ? ` (enlaces pendientes anulados: ${text(d.invites_revoked)})` : ""}`;
    case "oidc.email_changed":
      return `El correo de ${target} en OIDC cambió de ${text(d.from)} a ${text(d.to)}`;
    case "grant.create":
      return `${who} concedió ${text(d.tier)} en ${text(d.cluster)}${d.scope ? `/${text(d.scope)}` : ""} a ${target}`;
    case "grant.revoke":
      return `${who} retiró un permiso de ${target} en ${text(d.cluster)}`;
    case "credential.issue":
      return actor && actor === event.target?.login ? `${target} emitió una credencial` : `${who} emitió una credencial para ${target}`;
    case "credential.revoke":
      return `${who} revocó una credencial de ${target}${d.reason ? `: ${text(d.reason)}` : ""}`;
    case "cluster.create":
      return `${who} registró el cluster ${text(d.cluster)}`;
    case "cluster.tokens":
      return `${who} guardó los tokens del cluster ${text(d.cluster)}`;
    case "cluster.delete":
      return `${who} borró el cluster ${text(d.cluster)}`;
    case "ci.trust_rule.create":
      return `${who} creó la trust rule «${text(d.name)}» para ${target}`;
    case "ci.trust_rule.delete":
      return `${who} borró la trust rule «${text(d.name)}»`;
    case "ci.exchange.failure":
      return `Intercambio de CI rechazado: ${event.reason ?? "motivo desconocido"}`;
    default:
      return event.type;
  }
}

/** The event types a person may filter by, with their names. */
export const EVENT_TYPES: { value: string; label: string }[] = [
  { value: "login.", label: "Entradas" },
  { value: "link.complete", label: "Enlaces usados" },
  { value: "user.", label: "Cuentas" },
  { value: "bot.create", label: "Bots creados" },
  { value: "oidc.", label: "OIDC" },
  { value: "grant.", label: "Permisos" },
  { value: "credential.", label: "Credenciales" },
  { value: "cluster.", label: "Clusters" },
  { value: "ci.", label: "CI" },
];
