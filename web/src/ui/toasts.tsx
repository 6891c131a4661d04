// Short confirmations of what just happened; errors stay on the page instead (role="alert").
import { useEffect, useState } from "preact/hooks";

interface Toast { id: number; text: string }

let next = 1;
let toasts: Toast[] = [];
const listeners = new Set<(all: Toast[]) => void>();

export function toast(text: string) {
  const item = { id: next++, text };
  toasts = [...toasts, item];
  listeners.forEach((listener) => listener(toasts));
  setTimeout(() => {
    toasts = toasts.filter((other) => other.id !== item.id);
    listeners.forEach((listener) => listener(toasts));
  }, 5000);
}

export function Toasts() {
  const [all, setAll] = useState<Toast[]>(toasts);
  useEffect(() => {
    listeners.add(setAll);
    return () => {
      listeners.delete(setAll);
    };
  }, []);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {/* Two at most, the newest: more would climb over the screen's last rows. */}
      {all.slice(-2).map((item) => (
        <div class="toast" key={item.id}>{item.text}</div>
      ))}
    </div>
  );
}
