// What the login screen should tell a person who was sent back to it (spec issue screen 8).
const KEY = "klave.aviso";

export function leaveNotice(text: string) {
  sessionStorage.setItem(KEY, text);
}

export function takeNotice(): string | null {
  const text = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  return text;
}

/** Only paths inside the app are followed after sign-in. */
export function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/login") ? next : "/mi-cuenta";
}
