// A tiny history router: the path is state; links and code call navigate().
import { useEffect, useState } from "preact/hooks";

const listeners = new Set<() => void>();

export function navigate(to: string, replace = false) {
  if (replace) {
    history.replaceState(null, "", to);
  } else {
    history.pushState(null, "", to);
  }
  listeners.forEach((listener) => listener());
  window.scrollTo(0, 0);
}

window.addEventListener("popstate", () => listeners.forEach((listener) => listener()));

/** The current location; re-renders on every navigation. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return { path: location.pathname, search: new URLSearchParams(location.search) };
}

/** Same-origin anchor clicks become in-app navigations (keeps middle-click and modifiers). */
export function interceptLinks() {
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    const anchor = (event.target as Element).closest?.("a");
    if (!anchor || anchor.target || anchor.hasAttribute("download")) {
      return;
    }
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith("/api/")) {
      return;
    }
    if (url.pathname === location.pathname && url.search === location.search && url.hash) {
      return;
    }
    event.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
}

/** Sends the browser elsewhere once rendered (never during render). */
export function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, true), [to]);
  return null;
}
