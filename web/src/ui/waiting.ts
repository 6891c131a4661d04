// How many decisions wait for the signed-in person (issue 40 item 1): the menu's count, the page
// title's and the landing banner's, kept current by a poll of a small endpoint — every 30 s, when
// the tab comes back into view, and at once after a decision made here.
import { useEffect, useState } from "preact/hooks";
import { get } from "../api";

/** Agents' writes, access requests (agents' and people's), of which people's own (issue 41). */
export interface Waiting { writes: number; access: number; people: number; total: number }

const EVERY_MS = 30_000;
const NONE: Waiting = { writes: 0, access: 0, people: 0, total: 0 };
let current: Waiting = NONE;
const listeners = new Set<(waiting: Waiting) => void>();
let timer: number | undefined;

async function refresh(): Promise<void> {
  try {
    const next = await get<Waiting>("/api/agents/waiting");
    if (next.total !== current.total || next.writes !== current.writes || next.access !== current.access
      || next.people !== current.people) {
      current = next;
      listeners.forEach((listener) => listener(current));
    }
  } catch {
    // A failed poll keeps the last count; the next one tries again.
  }
}

function onVisible() {
  if (document.visibilityState === "visible") {
    void refresh();
  }
}

/** Asks again now: after a decision made on this page, the count drops at once. */
export function refreshWaiting(): void {
  void refresh();
}

/** The current count; the first subscriber starts the poll, the last one stops it. */
export function useWaiting(): Waiting {
  const [waiting, setWaiting] = useState<Waiting>(current);
  useEffect(() => {
    listeners.add(setWaiting);
    if (listeners.size === 1) {
      void refresh();
      timer = window.setInterval(() => void refresh(), EVERY_MS);
      document.addEventListener("visibilitychange", onVisible);
    }
    return () => {
      listeners.delete(setWaiting);
      if (listeners.size === 0) {
        window.clearInterval(timer);
        document.removeEventListener("visibilitychange", onVisible);
        current = NONE;
      }
    };
  }, []);
  return waiting;
}

/**
 * "5 escrituras y 1 solicitud de acceso de agentes y 2 solicitudes de acceso de personas" — for the
 * menu's accessible name and the banner.
 */
export function waitingText(waiting: Waiting): string {
  const agents: string[] = [];
  const agentsAccess = waiting.access - (waiting.people ?? 0);
  if (waiting.writes > 0) {
    agents.push(waiting.writes === 1 ? "1 escritura" : `${waiting.writes} escrituras`);
  }
  if (agentsAccess > 0) {
    agents.push(agentsAccess === 1 ? "1 solicitud de acceso" : `${agentsAccess} solicitudes de acceso`);
  }
  const parts = agents.length > 0 ? [`${agents.join(" y ")} de agentes`] : [];
  if (waiting.people > 0) {
    parts.push(waiting.people === 1 ? "1 solicitud de acceso de una persona"
      : `${waiting.people} solicitudes de acceso de personas`);
  }
  return parts.join(" y ");
}
