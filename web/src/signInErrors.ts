// Sign-in failure codes (spec 1 §7 "Forge login failure codes", spec 2 §7): the text shown for
// /login?error=<code> and /mi-cuenta?error=<code>, each under its own anchor, #forge-<code> or
// #oidc-<code>. A code both providers use (denied, state, …) shows the text of the provider the
// person was using: the sign-in buttons remember it for this tab.

export type Provider = "forge" | "oidc";

const PROVIDER_KEY = "klave.sign-in.provider";

/** Called by every button that sends the browser to a provider. */
export function rememberProvider(provider: Provider) {
  try {
    sessionStorage.setItem(PROVIDER_KEY, provider);
  } catch {
    // Storage off: the text falls back to the provider that is on.
  }
}

const LINKING_KEY = "klave.linking";

/**
 * Called by the link screen's buttons: the provider sends the person back to "/" once the link is
 * made (spec 1 §4), so the app says so on arrival ({@link takeLinked}).
 */
export function rememberLinking(provider: Provider) {
  try {
    sessionStorage.setItem(LINKING_KEY, provider);
  } catch {
    // Storage off: no confirmation, the account page still shows the link.
  }
}

/** The provider a link was just made with, once; null when none (or it failed: see forgetLinking). */
export function takeLinked(): Provider | null {
  try {
    const value = sessionStorage.getItem(LINKING_KEY);
    sessionStorage.removeItem(LINKING_KEY);
    return value === "forge" || value === "oidc" ? value : null;
  } catch {
    return null;
  }
}

function rememberedProvider(): Provider | null {
  try {
    const value = sessionStorage.getItem(PROVIDER_KEY);
    return value === "forge" || value === "oidc" ? value : null;
  } catch {
    return null;
  }
}

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

/** Spec 2 §7; {name} is OIDC_DISPLAY_NAME. */
export function oidcErrors(name: string): Record<string, string> {
  return {
    rate_limited: "Demasiados intentos; espera un minuto.",
    state: "La sesión de inicio ha caducado o no es válida. Vuelve a intentarlo.",
    denied: `Has cancelado el acceso con ${name}.`,
    oidc: `${name} no ha respondido como se esperaba. Inténtalo de nuevo en unos minutos.`,
    provider_unavailable: `No se puede contactar con ${name} ahora mismo. Inténtalo más tarde.`,
    token: `No se ha podido verificar la respuesta de ${name}.`,
    no_email: `${name} no ha compartido tu correo con Klave.`,
    email_unverified: `${name} no garantiza que ese correo sea tuyo.`,
    domain_not_allowed: "Tu cuenta no pertenece a un dominio aceptado.",
    unknown_account: "Ninguna cuenta de Klave tiene ese correo.",
    ambiguous_account: "Más de una cuenta de Klave tiene tu correo; pide ayuda a un administrador.",
    disabled: "Tu cuenta está deshabilitada.",
    identity_mismatch: `Tu cuenta está vinculada a otra identidad de ${name}; pide a un administrador que la desvincule.`,
    oidc_taken: `Esa identidad de ${name} ya está vinculada a otra cuenta de Klave.`,
    already_linked: `Tu cuenta ya tiene una identidad de ${name}; pide que la desvinculen primero.`,
    link_gone: "El enlace ha caducado o ya se ha usado; pide uno nuevo a un administrador.",
    server: "Error interno al completar el acceso. Inténtalo de nuevo.",
  };
}

export const SIGN_IN_UNKNOWN = "No se pudo entrar.";
export const FORGE_UNKNOWN = "No se pudo entrar con Forge.";

export interface SignInError {
  anchor: string | null;
  text: string;
  provider: Provider;
  /** domain_not_allowed and unknown_account offer the provider's account picker (spec 2 §7). */
  tryAnotherAccount: boolean;
  /** unknown_account shows the contact line when there is one. */
  showContact: boolean;
}

/** Texts that name no provider, for a failure code that reaches a Klave with neither provider on. */
const WITHOUT_PROVIDER: Record<string, string> = {
  state: FORGE_ERRORS.state, disabled: FORGE_ERRORS.disabled, link_gone: FORGE_ERRORS.link_gone,
  rate_limited: FORGE_ERRORS.rate_limited, server: FORGE_ERRORS.server,
};

/**
 * The message for {@code code}. Which provider failed: the one that is on; with both on, the one
 * named by a code of its own, else the one this tab last went to (OIDC when it went nowhere). With
 * neither on (an old link) no provider is named at all: only the providers that are on are ever
 * named, and by their display names.
 */
export function signInError(code: string, on: { forge: boolean; oidc: boolean; oidcName: string }): SignInError {
  const oidc = oidcErrors(on.oidcName || "OIDC");
  const ownedByForge = Object.hasOwn(FORGE_ERRORS, code) && !Object.hasOwn(oidc, code);
  const ownedByOidc = Object.hasOwn(oidc, code) && !Object.hasOwn(FORGE_ERRORS, code);
  let provider: Provider | null;
  if (on.forge && !on.oidc) {
    provider = "forge";
  } else if (on.oidc && !on.forge) {
    provider = "oidc";
  } else if (on.forge && on.oidc) {
    provider = ownedByForge ? "forge" : ownedByOidc ? "oidc" : rememberedProvider() ?? "oidc";
  } else {
    provider = null;
  }
  const table = provider === "forge" ? FORGE_ERRORS : provider === "oidc" ? oidc : WITHOUT_PROVIDER;
  const known = Object.hasOwn(table, code) ? table[code] : null;
  const safe = /^[a-z0-9_]{1,40}$/.test(code);
  return {
    anchor: safe ? `${provider ?? "sign-in"}-${code}` : null,
    text: known ?? (provider === "forge" ? FORGE_UNKNOWN : SIGN_IN_UNKNOWN),
    provider: provider ?? "forge",
    tryAnotherAccount: provider === "oidc" && (code === "domain_not_allowed" || code === "unknown_account"),
    showContact: provider === "oidc" && code === "unknown_account",
  };
}

/** The forge's message alone, for screens where only the forge links (kept for its callers). */
export function forgeError(code: string): { anchor: string | null; text: string } {
  const { anchor, text } = signInError(code, { forge: true, oidc: false, oidcName: "" });
  return { anchor, text };
}
