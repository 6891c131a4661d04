// Which sign-in providers are on, and their names (GET /api/auth/methods): every screen that
// names a provider asks here, so that none names one that is off (spec 2 §7: {name} is
// OIDC_DISPLAY_NAME). Read once per page load: the settings only change with a restart.
import { useEffect, useState } from "preact/hooks";
import { getAnonymous, type Methods } from "../api";

let asked: Promise<Methods> | null = null;

function methods(): Promise<Methods> {
  if (!asked) {
    asked = getAnonymous<Methods>("/api/auth/methods").catch((failure) => {
      asked = null;
      throw failure;
    });
  }
  return asked;
}

/** The providers that are on; undefined while unknown (name nothing until then). */
export function useMethods(): Methods | undefined {
  const [value, setValue] = useState<Methods | undefined>(undefined);
  useEffect(() => {
    let current = true;
    methods().then((found) => current && setValue(found)).catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);
  return value;
}

/** The forge's name as people read it: "Forge" (with the organisation when there is one). */
export function forgeName(on: Methods): string {
  return on.org ? `Forge (${on.org})` : "Forge";
}

/** OIDC's name as people read it: the provider's display name. */
export function oidcName(on: Methods | undefined): string {
  return on?.oidc_name || "OIDC";
}
