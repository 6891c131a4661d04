// First steps for an administrator (issue 40 item 11): until the installation has a cluster, a
// grant, a credential and an agent that acted, the account page lists those four, each a link to
// where it is done and ticked once it is true. Read from the same listings the screens read.
import { get, type AgentSession, type AuditRow, type Cluster, type Credential, type Grant, type ListPage,
  type Page } from "../api";
import { useLoad } from "../ui/load";

interface Step { done: boolean; label: string; href: string; hint: string }

export function FirstSteps() {
  const clusters = useLoad(() => get<Cluster[]>("/api/clusters"), []);
  const grants = useLoad(() => get<ListPage<Grant>>("/api/grants?limit=1"), []);
  const credentials = useLoad(() => get<ListPage<Credential>>("/api/credentials?limit=1"), []);
  const sessions = useLoad(() => get<AgentSession[]>("/api/agent-sessions"), []);
  const tools = useLoad(() => get<Page<AuditRow>>("/api/audit?channel=tool"), []);
  const loaded = [clusters, grants, credentials, sessions, tools];
  if (loaded.some((part) => part.data === undefined)) {
    return null;
  }
  const steps: Step[] = [
    { done: (clusters.data?.length ?? 0) > 0, label: "Registra un cluster", href: "/admin/clusters",
      hint: "Klave le da tokens propios con un manifiesto que aplicas una vez." },
    { done: (grants.data?.items.length ?? 0) > 0, label: "Da un permiso", href: "/admin/permisos",
      hint: "Quién puede hacer qué en qué cluster y namespace; también a ti." },
    { done: (credentials.data?.items.length ?? 0) > 0, label: "Emite una credencial", href: "/admin/credenciales",
      hint: "Un kubeconfig de corta duración para kubectl, para una persona o un bot." },
    { done: (sessions.data?.length ?? 0) > 0 || (tools.data?.events.length ?? 0) > 0, label: "Conecta un agente",
      href: "#connect-agent", hint: "Claude Code, VS Code, Cursor…: abajo, en «Conectar un agente»." },
  ];
  if (steps.every((step) => step.done)) {
    return null;
  }
  const left = steps.filter((step) => !step.done).length;
  return (
    <section class="card" aria-labelledby="first-steps" data-testid="first-steps">
      <h2 id="first-steps">Primeros pasos</h2>
      <p class="muted">{left === 1 ? "Queda un paso" : `Quedan ${left} pasos`} para que Klave dé acceso a alguien.</p>
      <ol class="steps">
        {steps.map((step) => (
          <li key={step.label} class={step.done ? "step-done" : undefined} data-testid="first-step">
            <span class="step-mark" aria-hidden="true">{step.done ? "✓" : "○"}</span>
            <span><a href={step.href}>{step.label}</a>
              <span class="visually-hidden">{step.done ? ": hecho" : ": pendiente"}</span>
              <span class="muted small"> · {step.hint}</span></span>
          </li>
        ))}
      </ol>
    </section>
  );
}
