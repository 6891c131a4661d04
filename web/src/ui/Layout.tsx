import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import { post, type Me } from "../api";
import { navigate, useLocation } from "../router";
import { mayLeave } from "./leaveGuard";
import { toast } from "./toasts";
import { useWaiting, waitingText } from "./waiting";

const ADMIN_LINKS = [
  { href: "/admin/usuarios", label: "Usuarios" },
  { href: "/admin/clusters", label: "Clusters" },
  { href: "/admin/permisos", label: "Permisos" },
  { href: "/admin/credenciales", label: "Credenciales" },
  { href: "/admin/ci", label: "CI" },
  { href: "/agentes", label: "Agentes" },
  { href: "/admin/auditoria", label: "Auditoría" },
  { href: "/sesiones", label: "Sesiones" },
  { href: "/admin/instalacion", label: "Instalación" },
];

export function Layout({ me, onSignedOut, children }: {
  me: Me;
  onSignedOut: () => void;
  children: ComponentChildren;
}) {
  const { path } = useLocation();
  const waiting = useWaiting();
  // A person who is no administrator still decides what their own agents ask: "Agentes" shows
  // for them while something waits.
  const links = [{ href: "/mi-cuenta", label: "Mi cuenta" }, ...(me.is_admin ? ADMIN_LINKS
    : waiting.total > 0 ? [{ href: "/agentes", label: "Agentes" }] : [])];

  // Each screen change moves focus to its heading, so keyboard and screen-reader users start there.
  useEffect(() => {
    const heading = document.querySelector<HTMLElement>("main h1");
    if (heading && (document.activeElement === document.body || document.activeElement?.closest("nav"))) {
      heading.focus();
    }
  }, [path]);

  // The title says what waits too, so a tab in the background shows it.
  useEffect(() => {
    const heading = document.querySelector<HTMLElement>("main h1");
    const count = waiting.total > 0 ? `(${waiting.total}) ` : "";
    document.title = `${count}${heading?.textContent ?? "Klave"} · Klave`;
  });

  const signOut = async () => {
    if (!(await mayLeave())) {
      return;
    }
    try {
      await post("/api/auth/logout");
    } catch {
      // The session may already be gone; signing out locally is what matters.
    }
    onSignedOut();
    toast("Has cerrado todas tus sesiones.");
    navigate("/login");
  };

  return (
    <div class="shell">
      <a class="skip" href="#contenido">Saltar al contenido</a>
      <header class="topbar">
        <a class="brand" href="/mi-cuenta" aria-label="Klave, inicio">
          <img src="/favicon.svg" alt="" width="24" height="24" /> Klave
        </a>
        <nav aria-label="Principal">
          <ul>
            {links.map((link) => {
              // A request's page (/agents/requests/<id>) belongs to the agents page; a consent page to no part.
              const current = path === link.href || path.startsWith(`${link.href}/`)
                || (link.href === "/agentes" && path.startsWith("/agents/requests/"));
              return (
                <li key={link.href}>
                  <a href={link.href} aria-current={current ? "page" : undefined}>{link.label}
                    {link.href === "/agentes" && waiting.total > 0 && (
                      <span class="count" data-testid="waiting-count">
                        <span aria-hidden="true">{waiting.total}</span>
                        <span class="visually-hidden">: esperan tu decisión {waitingText(waiting)}</span>
                      </span>)}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <div class="who">
          <span class="who-name" title={me.login}>{me.display_name || me.login}</span>
          {me.is_admin && <span class="badge">admin</span>}
          <button type="button" class="button button-small" onClick={signOut}
            aria-label="Salir: cierra todas tus sesiones" title="Cierra todas tus sesiones, en todos tus navegadores">Salir</button>
        </div>
      </header>
      <main id="contenido">
        {path === "/mi-cuenta" && waiting.total > 0 && (
          <p class="alert alert-warning" role="status" data-testid="waiting-banner">
            Esperan tu decisión {waitingText(waiting)}. Caducan si nadie decide
            a tiempo. <a href="/agentes">Revisarlas</a>
          </p>)}
        {children}
      </main>
    </div>
  );
}
