// What the login screen should tell a person who was sent back to it.
// Kept in memory: the app never reloads on the way to /login, and a reload of /login means the
// person has already seen it.
let notice: string | null = null;

export function leaveNotice(text: string) {
  notice = text;
}

export function currentNotice(): string | null {
  return notice;
}

export function clearNotice() {
  notice = null;
}

/** Mounts that are not pages of the web interface; /login would only loop. */
const NOT_PAGES = ["/api", "/v1", "/mcp", "/oauth", "/.well-known", "/clusters", "/healthz", "/readyz", "/login"];

function isPage(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) {
    return false;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(path)) {
    return false;
  }
  const pathPart = path.split(/[?#]/, 1)[0];
  if (pathPart.slice(1).split("/").some((segment) => segment === "." || segment === "..")) {
    return false;
  }
  const lower = pathPart.toLowerCase();
  return !NOT_PAGES.some((mount) => lower === mount || lower.startsWith(`${mount}/`));
}

/**
 * The page a sign-in returns to, when {@code next} is one of Klave's own (the same rules as the
 * server's ReturnPath): one leading "/", printable ASCII, no backslash, no dot segment, not /api or
 * another mount that is not a page — on the path as written and once percent-decoded. Else null.
 */
export function returnPath(next: string | null): string | null {
  if (!next || next.length > 2048 || !/^[\x21-\x7e]+$/.test(next)) {
    return null;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(next);
  } catch {
    return null;
  }
  return isPage(next) && isPage(decoded) ? next : null;
}

/** Only Klave's own pages are followed after sign-in; anything else lands on the account page. */
export function safeNext(next: string | null): string {
  return returnPath(next) ?? "/mi-cuenta";
}

/** "?next=…" (or "&next=…" after other parameters) for the sign-in links, when there is a page to return to. */
export function nextParameter(next: string | null, first = true): string {
  const path = returnPath(next);
  return path ? `${first ? "?" : "&"}next=${encodeURIComponent(path)}` : "";
}
