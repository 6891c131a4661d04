// Control events as Spanish sentences (what happened, who did it, to whom), never type or reason
// codes: every event type and reason of spec 1 §6-7 and spec 2 §6-7 has its words here, and a
// browser test walks the whole list (EventSentencesBrowserTest).
import type { ControlEvent } from "./api";

/**
 * How providers are named on this installation: the forge, and OIDC by its display name; null
 * for one that is off (an event from when it was on still reads with its generic name).
 */
export interface ProviderNames { forge: string | null; oidc: string | null }

interface Names { forge: string; oidc: string; on: string }

function named(names: ProviderNames): Names {
  const forge = names.forge ?? "Forge";
  const oidc = names.oidc ?? "OIDC";
  return { forge, oidc, on: names.oidc ?? names.forge ?? "su proveedor de identidad" };
}

/** Why a sign-in failed: password reasons (spec 1 §5), forge codes (spec 1 §7), OIDC codes (spec 2 §7). */
function failureReason(reason: string, names: Names, via: string): string {
  const provider = via === "oidc" ? names.oidc : via === "forge" ? names.forge : "el proveedor";
  const reasons: Record<string, string> = {
    unknown_login: "no hay ninguna cuenta con ese usuario",
    wrong_password: "contraseña incorrecta",
    wrong_password_locked: "contraseña incorrecta, y la cuenta queda bloqueada 15 minutos",
    locked: "la cuenta estaba bloqueada por demasiados fallos",
    password_disabled: `la contraseña está desactivada para esta cuenta: entra con ${names.on}`,
    no_password: "la cuenta no tiene contraseña todavía",
    disabled: "la cuenta está deshabilitada",
    rate_limited: "demasiados intentos desde la misma dirección",
    state: "la sesión de inicio había caducado o no era válida",
    denied: `la persona canceló el acceso en ${provider} o ${provider} la rechazó`,
    forge: `${names.forge} no respondió como se esperaba`,
    oidc: `${names.oidc} no respondió como se esperaba`,
    provider_unavailable: `no se pudo contactar con ${names.oidc}`,
    token: `no se pudo verificar la respuesta de ${names.oidc}`,
    not_member: "no es miembro activo de la organización",
    no_2fa: "la organización no exige doble factor",
    unknown_account: `esa cuenta de ${provider} no corresponde a ninguna cuenta de Klave`,
    ambiguous_account: "varias cuentas tienen ese correo",
    no_email: `${names.oidc} no compartió el correo`,
    email_unverified: `${names.oidc} no garantiza el correo`,
    domain_not_allowed: "el correo no es de un dominio aceptado",
    identity_mismatch: `la cuenta ya está vinculada a otra identidad de ${provider}`,
    oidc_taken: `esa identidad de ${names.oidc} ya abre otra cuenta`,
    forge_taken: `esa cuenta de ${names.forge} ya está vinculada a otra cuenta`,
    already_linked: `la cuenta ya tenía otra identidad de ${provider}`,
    link_gone: "el enlace había caducado o ya se había usado",
    server: "error interno",
  };
  return reasons[reason] ?? "motivo no reconocido";
}

/** How someone signed in or used a link. */
function by(via: string | null | undefined, names: Names): string {
  switch (via) {
    case "password": return "con contraseña";
    case "forge": return `con ${names.forge}`;
    case "oidc": return `con ${names.oidc}`;
    default: return "";
  }
}

/** Who acted when no person did: the command line, the forge's sync or webhook, Klave. */
function automatic(via: string | null | undefined): string {
  switch (via) {
    case "cli": return "Un administrador, desde la línea de órdenes,";
    case "forge-sync": return "La sincronización con Forge";
    case "forge-webhook": return "El aviso (webhook) de Forge";
    default: return "Klave";
  }
}

function text(value: unknown): string {
  return Array.isArray(value) ? value.join(", ") : value === true ? "sí" : value === false ? "no" : String(value ?? "");
}

const PURPOSE: Record<string, string> = {
  invitation: "su invitación",
  reset: "un enlace nuevo",
  account_page: "su página de cuenta",
};

const TIERS: Record<string, string> = {
  view: "ver", edit: "editar", admin: "administrar", "cluster-view": "ver todo el cluster",
  "cluster-admin": "administrar el cluster",
};

function where(d: Record<string, unknown>): string {
  const scope = d.scope ? text(d.scope) : "";
  return `${text(d.cluster)}${scope ? scope === "*" ? " (todo el cluster)" : `, namespace ${scope}` : ""}`;
}

/** The reason of a refused CI exchange: the specification's Spanish ones as they are, token checks in words. */
export function ciReason(reason: string | null | undefined): string {
  const value = reason ?? "";
  if (/^(ninguna trust rule|el bot )/.test(value)) {
    return value;
  }
  if (/already exchanged|exchanged by a concurrent/.test(value)) {
    return "ese token ya se había canjeado (cada ejecución de un job solo puede canjearlo una vez)";
  }
  if (/no token/.test(value)) {
    return "la petición no traía token";
  }
  if (/expir|\bexp\b/i.test(value)) {
    return "el token había caducado";
  }
  if (/audience|\baud\b/i.test(value)) {
    return "el token era para otra audiencia, no para la URL de Klave";
  }
  if (/issuer|\biss\b/i.test(value)) {
    return "el token no lo emitió el emisor aceptado";
  }
  return "el token no es válido";
}

/** The sentence for one event; an unknown type still reads as a sentence, never as nothing. */
export function sentence(event: ControlEvent, providers: ProviderNames = { forge: null, oidc: null }): string {
  const names = named(providers);
  const actor = event.actor?.login;
  const target = event.target?.login ?? "alguien";
  const self = actor !== undefined && actor === event.target?.login;
  const who = actor ?? automatic(event.via);
  const d = (event.details ?? {}) as Record<string, unknown>;
  const how = by(event.via, names);
  switch (event.type) {
    case "login.success":
      return `${target} entró ${how}`.trim();
    case "login.failure": {
      const as = event.target ? ` de ${target}` : d.login ? ` como «${text(d.login)}»` : d.email ? ` de ${text(d.email)}` : "";
      const email = event.target && d.email ? ` (${text(d.email)})` : "";
      const candidates = d.candidates ? `; cuentas con ese correo: ${text(d.candidates)}` : "";
      return `Entrada fallida${as}${email} ${how}: ${failureReason(event.reason ?? "", names, event.via ?? "")}${candidates}`
        .replace(/ +:/, ":");
    }
    case "link.complete": {
      const mismatch = d.email_mismatch === true || d.email_mismatch === "true"
        ? ` (el correo de ${event.via === "oidc" ? names.oidc : "su proveedor"} no es el de la cuenta)` : "";
      if (event.reason === "account_page") {
        return `${target} vinculó su cuenta ${how} desde su página de cuenta${mismatch}`;
      }
      return `${target} activó ${PURPOSE[event.reason ?? ""] ?? "un enlace"} y entró ${how}${mismatch}`.replace(/ +\(/, " (");
    }
    case "user.create":
      return actor ? `${actor} dio de alta a ${target}` : `${target} fue dado de alta desde la línea de órdenes`;
    case "bot.create":
      return `${who} creó el bot ${target}`;
    case "user.update":
      // A bot has no role: what its change leaves is its approval setting (spec 3 §4).
      if (d.writes_need_approval !== undefined) {
        return `${who} cambió los datos de ${target}${d.writes_need_approval === "true" || d.writes_need_approval === true
          ? " (sus escrituras necesitan aprobación)" : " (sus escrituras no necesitan aprobación)"}`;
      }
      return `${who} cambió los datos de ${target}${d.is_admin === "true" || d.is_admin === true ? " (es administrador)"
        : d.is_admin === "false" || d.is_admin === false ? " (no es administrador)" : ""}`;
    case "user.reset_link":
      return `${who} generó un enlace nuevo para ${target}`;
    case "user.break_glass":
      return `${target} quedó marcada como cuenta de emergencia desde la línea de órdenes`;
    case "user.break_glass_removed":
      return `${target} dejó de ser cuenta de emergencia desde la línea de órdenes`;
    case "user.disable":
      return `${who} deshabilitó a ${target}`;
    case "user.enable":
      return `${who} habilitó a ${target}`;
    case "user.logout":
      return self ? `${target} cerró todas sus sesiones` : `${who} cerró las sesiones de ${target}`;
    case "user.password_change":
      return `${target} cambió su contraseña`;
    case "user.forge_unlink":
      return `${who} desvinculó a ${target} de ${names.forge}`;
    case "user.oidc_unlink":
      return `${who} desvinculó a ${target} de ${names.oidc}`;
    case "oidc.link":
    case "forge.link":
      return `${target} quedó vinculada con ${event.type === "oidc.link" ? names.oidc : names.forge} por su correo${
        d.invites_revoked ? ` (enlaces pendientes anulados: ${text(d.invites_revoked)})` : ""}${
        d.replaced_issuer || d.replaced_claim ? "; sustituye a una identidad de otra configuración del proveedor" : ""}`;
    case "oidc.email_changed":
    case "forge.email_changed":
      return `El correo de ${target} en ${event.type === "oidc.email_changed" ? names.oidc : names.forge} cambió de ${
        text(d.from)} a ${text(d.to)}`;
    case "grant.create":
      return `${who} concedió a ${target} el permiso «${TIERS[text(d.tier)] ?? text(d.tier)}» en ${where(d)}`;
    case "grant.revoke":
      return d.tier
        ? `${who} retiró a ${target} el permiso «${TIERS[text(d.tier)] ?? text(d.tier)}» en ${where(d)}`
        : `${who} retiró un permiso de ${target} en ${text(d.cluster)}`;
    case "credential.issue":
      return self ? `${target} emitió una credencial para sí` : `${who} emitió una credencial para ${target}`;
    case "credential.revoke":
      return `${self ? `${target} revocó una de sus credenciales` : `${who} revocó una credencial de ${target}`}${
        d.reason ? `: «${text(d.reason)}»` : ""}`;
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
    case "agent.write_approved":
    case "agent.write_denied":
      return `${who} ${event.type === "agent.write_approved" ? "aprobó" : "denegó"} ${asked(event, self)}: ${
        action(text(d.verb))} ${text(d.resource)}/${text(d.name)}${d.namespace ? ` en ${text(d.namespace)}` : ""} (${
        text(d.cluster)})`;
    case "agent.access_approved":
      return `${who} aprobó ${asked(event, self, "la solicitud de acceso")}: «${TIERS[text(d.tier)] ?? text(d.tier)}» en ${
        where(d)} durante ${text(d.minutes)} minutos`;
    case "agent.access_denied":
      return `${who} denegó ${asked(event, self, "la solicitud de acceso")}: «${TIERS[text(d.tier)] ?? text(d.tier)}» en ${
        where(d)}`;
    case "agent.session_start":
      return `${target} autorizó a ${clientOf(d)} a actuar en su nombre${permissionsOf(d)}${
        d.writes_need_approval === false ? "; sus escrituras no esperan aprobación" : "; sus escrituras esperan su aprobación"}`;
    case "agent.session_denied":
      return `${target} denegó el acceso a ${clientOf(d)}`;
    case "agent.session_end":
      return self ? `${target} terminó la sesión de uno de sus agentes` : `${who} terminó la sesión de un agente de ${target}`;
    case "oauth.clients_purge":
      return `${who} purgó ${text(d.deleted)} clientes OAuth que nunca iniciaron sesión`;
    case "audit.retention":
      return `Retención de la auditoría: ${text(d.deleted)} peticiones anteriores a ${text(d.before)} borradas`;
    case "ci.exchange.failure":
      return `Intercambio de CI rechazado: ${ciReason(event.reason)}`;
    case "access_request.create":
      return `${target} pidió «${tierOf(d)}» en ${where(d)} durante ${minutesOf(d)}`;
    case "access_request.first_approval":
      return `${who} dio la primera de dos aprobaciones a ${target}: «${tierOf(d)}» en ${where(d)}${commentOf(d)}`;
    case "access_request.approve":
      return d.automatic
        ? `${target} activó «${tierOf(d)}» en ${where(d)} durante ${minutesOf(d)}`
        : `${who} aprobó a ${target} «${tierOf(d)}» en ${where(d)} durante ${minutesOf(d)}${commentOf(d)}`;
    case "access_request.deny":
      return `${who} denegó a ${target} «${tierOf(d)}» en ${where(d)}${commentOf(d)}`;
    case "access_request.cancel":
      return `${target} retiró su solicitud de «${tierOf(d)}» en ${where(d)}`;
    case "access_request.expire":
      return `La solicitud de ${target} de «${tierOf(d)}» en ${where(d)} caducó sin respuesta`;
    case "access_request.end":
      return d.revoked
        ? `El acceso de ${target} a «${tierOf(d)}» en ${where(d)} terminó: se retiró su permiso`
        : d.early
          ? `${target} terminó antes de tiempo su acceso a «${tierOf(d)}» en ${where(d)}`
          : `El acceso de ${target} a «${tierOf(d)}» en ${where(d)} terminó a su hora`;
    case "eligible_grant.create":
      return `${who} hizo a ${target} elegible para «${tierOf(d)}» en ${where(d)}, hasta ${minutesOf(d, "max_minutes")}${
        d.needs_approval ? " con aprobación" : " sin aprobación"}`;
    case "eligible_grant.revoke":
      return `${who} retiró a ${target} el permiso elegible «${tierOf(d)}» en ${where(d)}`;
    case "notify.destination_create":
      return `${who} añadió el destino de avisos «${text(d.name)}» (${d.format === "slack" ? "Slack" : "JSON firmado"}, ${
        text(d.address)})`;
    case "notify.destination_delete":
      return `${who} quitó el destino de avisos «${text(d.name)}»`;
    case "recording.policy_update":
      return `${who} puso la grabación de sesiones de ${text(d.cluster)} en «${
        ({ off: "sin grabar", on: "grabar", required: "grabar siempre (obligatoria)" } as Record<string, string>)[
          text(d.policy)] ?? text(d.policy)}»${d.stdin === "true" ? ", también lo que se teclea" : ""}`;
    case "recording.delete":
      return `${who} borró la grabación de la sesión de ${text(d.subject)} en ${text(d.pod)} (${text(d.cluster)})`;
    case "recording.view":
      return `${who} vio la grabación de la sesión de ${text(d.subject)} en ${text(d.pod)} (${text(d.cluster)})`;
    case "access_policy.update":
      return `${who} cambió cómo se pide acceso a ${text(d.cluster)}: hasta ${minutesOf(d, "max_minutes")}${
        d.two_approvals ? ", dos aprobaciones para lo amplio" : ""}${
        d.deciders ? `; deciden también ${text(d.deciders)}` : ""}`;
    default:
      return `Evento sin descripción (${event.type})`;
  }
}

/** A tier's Spanish name from an event's details. */
function tierOf(d: Record<string, unknown>): string {
  return TIERS[text(d.tier)] ?? text(d.tier);
}

/** "90 minutos", "8 horas" from an event's minutes. */
function minutesOf(d: Record<string, unknown>, key = "minutes"): string {
  const minutes = Number(d[key]);
  if (!Number.isFinite(minutes)) return text(d[key]);
  return minutes % 60 === 0 ? `${minutes / 60} ${minutes === 60 ? "hora" : "horas"}` : `${minutes} minutos`;
}

/** ": «comment»" when a decider said something. */
function commentOf(d: Record<string, unknown>): string {
  return d.comment ? `: «${text(d.comment)}»` : "";
}

/** The agent's client as its event names it: «Claude Code», or its id. */
function clientOf(d: Record<string, unknown>): string {
  return d.client_name ? `«${text(d.client_name)}»` : `el cliente ${text(d.client)}`;
}

/** ", con «ver (solo lectura)» en team-a de prod-1 y …" from "cluster/role/scope" entries. */
function permissionsOf(d: Record<string, unknown>): string {
  const list = Array.isArray(d.permissions) ? d.permissions.map(String) : [];
  const named = list.map((entry) => {
    const [cluster, role, scope] = entry.split("/");
    return `«${TIERS[role] ?? role}» en ${scope === "*" ? "todo el cluster" : `el namespace ${scope}`} de ${cluster}`;
  });
  return named.length === 0 ? "" : `, con ${named.join(" y ")}`;
}

/** The tools' verbs in Spanish ("escalar"), as the request's page names them. */
const ACTIONS: Record<string, string> = {
  create: "crear", update: "actualizar", patch: "modificar", apply: "aplicar", delete: "borrar",
  scale: "escalar", restart: "reiniciar", rollout_restart: "reiniciar",
};

function action(verb: string): string {
  return ACTIONS[verb] ?? verb;
}

/**
 * What was asked and by whom: "la escritura del bot deploybot", "la escritura de un agente de
 * carol", or — when the person decided what their own agent asked — "la escritura de uno de sus
 * agentes". Events before the requester was recorded read as a person's agent's.
 */
function asked(event: ControlEvent, self: boolean, what = "la escritura"): string {
  const target = event.target?.login ?? "alguien";
  if (event.details.requester === "bot") {
    return `${what} del bot ${target}`;
  }
  return self ? `${what} de uno de sus agentes` : `${what} de un agente de ${target}`;
}

/** The event types a person may filter by, with their names (OIDC's only while it is on). */
export function eventTypes(providers: ProviderNames): { value: string; label: string }[] {
  return [
    { value: "login.", label: "Entradas" },
    { value: "link.complete", label: "Enlaces usados" },
    { value: "user.", label: "Cuentas" },
    { value: "bot.create", label: "Bots creados" },
    ...(providers.oidc ? [{ value: "oidc.", label: `Vinculaciones con ${providers.oidc}` }] : []),
    { value: "grant.", label: "Permisos" },
    { value: "credential.", label: "Credenciales" },
    { value: "cluster.", label: "Clusters" },
    { value: "ci.", label: "CI" },
    { value: "agent.", label: "Agentes" },
  ];
}
