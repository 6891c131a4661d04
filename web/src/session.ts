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

/** Only paths inside the app are followed after sign-in. */
export function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/login") ? next : "/mi-cuenta";
}
