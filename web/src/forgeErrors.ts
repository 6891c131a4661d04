// Forge sign-in failure codes (spec 1 §7 "Forge login failure codes"): the text shown for
// /login?error=<code> and /mi-cuenta?error=<code>, each under the anchor #forge-<code>.
export const FORGE_ERRORS: Record<string, string> = {
  state: "La sesión de inicio ha caducado o no es válida. Vuelve a intentarlo.",
  denied: "Has cancelado el acceso en Forge.",
  forge: "Forge no ha respondido como se esperaba. Inténtalo de nuevo en unos minutos.",
  not_member: "Tu cuenta de Forge no es miembro activo de la organización.",
  no_2fa: "La organización no exige doble factor, así que Klave no deja entrar con Forge.",
  unknown_account: "Tu cuenta de Forge no está vinculada a ninguna cuenta de Klave; pide un enlace de vinculación a un administrador.",
  disabled: "Tu cuenta está deshabilitada.",
  link_gone: "El enlace ha caducado o ya se ha usado; pide uno nuevo a un administrador.",
  forge_taken: "Esa cuenta de Forge ya está vinculada a otra cuenta de Klave.",
  already_linked: "Tu cuenta ya está vinculada a otra cuenta de Forge; pide que la desvinculen primero.",
  rate_limited: "Demasiados intentos; espera un minuto.",
  server: "Error interno al completar el acceso.",
};

export const FORGE_UNKNOWN = "No se pudo entrar con Forge.";

export function forgeError(code: string): { anchor: string | null; text: string } {
  const text = Object.hasOwn(FORGE_ERRORS, code) ? FORGE_ERRORS[code] : null;
  const anchor = /^[a-z0-9_]{1,40}$/.test(code) ? `forge-${code}` : null;
  return { anchor, text: text ?? FORGE_UNKNOWN };
}
