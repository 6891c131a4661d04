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
