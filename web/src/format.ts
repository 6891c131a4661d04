// Dates and durations as people in Spain read them.
const dateTime = new Intl.DateTimeFormat("es-ES", { dateStyle: "medium", timeStyle: "short" });
const dateTimeSeconds = new Intl.DateTimeFormat("es-ES", { dateStyle: "medium", timeStyle: "medium" });

export function when(iso: string | null | undefined, seconds = false): string {
  if (!iso) {
    return "—";
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : (seconds ? dateTimeSeconds : dateTime).format(date);
}

/** A datetime-local input value (local time) as RFC 3339 with the offset, or "" when empty. */
export function rfc3339(local: string): string {
  if (!local) {
    return "";
  }
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

const ZONED = /Z$|[+-]\d\d:\d\d$/;

/** A filter's time for the address: RFC 3339 as it is, a datetime-local value converted. */
export function toRfc3339(value: string): string {
  return !value || ZONED.test(value) ? value : rfc3339(value);
}

/**
 * A filter's time as a datetime-local input shows it: the person's local time, so that filtering
 * "Desde 13:50" in Madrid still reads 13:50 afterwards (the address holds UTC).
 */
export function toLocalInput(value: string): string {
  if (!value || !ZONED.test(value)) {
    return value;
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    return "";
  }
  return new Date(date.getTime() - date.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
}

/** "Hasta" before "Desde" matches nothing: the screens say so instead of listing nothing. */
export function rangeProblem(from: string, to: string): string | null {
  const start = from ? new Date(toRfc3339(from)).getTime() : NaN;
  const end = to ? new Date(toRfc3339(to)).getTime() : NaN;
  return start > end ? "«Hasta» es anterior a «Desde»: ningún registro puede estar entre las dos. Corrige una de las fechas." : null;
}

export const CREDENTIAL_STATUS: Record<string, string> = {
  active: "activa",
  revoked: "revocada",
  expired: "caducada",
};

export const CLUSTER_STATUS: Record<string, string> = {
  pending: "sin tokens",
  ready: "en línea",
  error: "con error",
};

export const PURPOSE: Record<string, string> = {
  invitation: "invitación para crear tu cuenta",
  reset: "enlace para restablecer tu contraseña",
  linking: "enlace de vinculación",
};

/** The tiers' names in Spanish, beside the codes the API and the cluster use. */
export const TIER_NAMES: Record<string, string> = {
  view: "ver (solo lectura)",
  edit: "editar (lectura y escritura)",
  admin: "administrar el namespace",
  "cluster-view": "ver todo el cluster",
  "cluster-admin": "administrar el cluster",
};
