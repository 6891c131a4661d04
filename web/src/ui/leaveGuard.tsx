// A secret on screen that Klave shows once (a token, a kubeconfig, a one-time link) is lost with
// any navigation away from it: inside the app (a link, Back, "Salir") the person is asked first,
// and the browser asks before a reload or before leaving the site.
import { useLayoutEffect } from "preact/hooks";
import { confirmAction } from "./confirm";

const guards = new Map<symbol, string>();

/**
 * While mounted, leaving asks first; {@code what} names the secret: "un token", "un enlace". Armed
 * in a layout effect — before the secret is painted — so that no Back pressed the moment it shows
 * gets past it (a deferred effect left a window of a frame or more on a busy machine).
 */
export function useLeaveGuard(what: string) {
  useLayoutEffect(() => {
    const key = Symbol(what);
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when a text is set; none shows it any more.
      event.returnValue = "Klave no volverá a mostrarlo.";
      return event.returnValue;
    };
    guards.set(key, what);
    window.addEventListener("beforeunload", warn);
    return () => {
      guards.delete(key);
      window.removeEventListener("beforeunload", warn);
    };
  }, [what]);
}

export function guarded(): boolean {
  return guards.size > 0;
}

/** Whether leaving may go on: at once when nothing is on screen, else the person's answer. */
export async function mayLeave(): Promise<boolean> {
  if (guards.size === 0) {
    return true;
  }
  const what = [...new Set(guards.values())].join(" y ");
  const answer = await confirmAction({
    title: "¿Salir sin guardarlo?",
    body: <p>En pantalla hay {what} que Klave no volverá a mostrar. Si sales ahora, se pierde y habrá que
      generar otro.</p>,
    confirmLabel: "Salir y perderlo",
    danger: true,
  });
  if (answer) {
    // The screen is about to go; nothing more to ask on the way out.
    guards.clear();
  }
  return answer !== null;
}
