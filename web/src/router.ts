// A tiny history router: the path is state; links and code call navigate(). While a secret shown
// once is on screen (ui/leaveGuard), every way out — a link, navigate(), Back or Forward — asks first.
import { useEffect, useState } from "preact/hooks";
import { guarded, mayLeave } from "./ui/leaveGuard";

const listeners = new Set<() => void>();
let here = location.pathname + location.search + location.hash;

function go(to: string, replace: boolean) {
  if (replace) {
    history.replaceState(null, "", to);
  } else {
    history.pushState(null, "", to);
  }
  here = location.pathname + location.search + location.hash;
  listeners.forEach((listener) => listener());
  window.scrollTo(0, 0);
}

export function navigate(to: string, replace = false) {
  if (!guarded()) {
    go(to, replace);
    return;
  }
  void mayLeave().then((leave) => {
    if (leave) {
      go(to, replace);
    }
  });
}

/** Goes at once, asking nobody: the session is gone, and with it whatever was on screen. */
export function navigateNow(to: string, replace = false) {
  go(to, replace);
}

window.addEventListener("popstate", () => {
  if (!guarded()) {
    here = location.pathname + location.search + location.hash;
    listeners.forEach((listener) => listener());
    return;
  }
  // The address has already changed: put this screen's back, then ask; leaving goes back again,
  // with nothing guarded any more.
  history.pushState(null, "", here);
  void mayLeave().then((leave) => {
    if (leave) {
      history.back();
    }
  });
});

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
