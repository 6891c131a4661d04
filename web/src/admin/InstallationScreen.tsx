import { useState } from "preact/hooks";
import { get, post, type InstallationHealth, type Notice } from "../api";
import { confirmAction } from "../ui/confirm";
import { message, useLoad } from "../ui/load";
import { CardTable } from "../ui/CardTable";
import { Loads } from "../ui/states";
import { toast } from "../ui/toasts";
import { NotifyDestinations } from "./NotifyDestinations";

const CHECK_NAMES: Record<string, string> = {
  database: "Base de datos",
  admin_can_sign_in: "Algún administrador puede entrar",
  oidc_discovery: "Descubrimiento del proveedor OIDC",
  forge_sync: "Sincronización con Forge",
  oauth_clients: "Clientes OAuth de agentes",
};

/**
 * Anyone may register an OAuth client (spec 3 §8: 10 000 at most); those that never completed a
 * login go a day after they registered, or now, from here.
 */
function OAuthClients({ onPurged }: { onPurged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const purge = async () => {
    const answer = await confirmAction({
      title: "Purgar clientes OAuth",
      body: <p>Se borran los clientes registrados que nunca completaron un inicio de sesión. Los agentes con sesión no se ven afectados.</p>,
      confirmLabel: "Purgar",
      danger: true,
    });
    if (!answer) {
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const purged = await post<{ deleted: number }>("/api/agents/clients/purge");
      toast(`${purged.deleted} clientes OAuth borrados.`);
      onPurged();
    } catch (error) {
      setFailure(message(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="clients-title">
      <h2 id="clients-title">Clientes OAuth de agentes</h2>
      <p>Los clientes registrados que nunca completaron un inicio de sesión se borran solos al día siguiente de registrarse.</p>
      {failure && <div class="alert alert-error" role="alert">{failure}</div>}
      <button type="button" class="button button-danger" disabled={busy} onClick={() => void purge()}
        data-testid="purge-clients">{busy ? "Purgando…" : "Purgar los que nunca iniciaron sesión"}</button>
    </section>
  );
}

const STATE_LABELS: Record<string, string> = { ok: "bien", failing: "falla", off: "no configurado" };

/** The installation as a whole: administrators' notices and each health check with its state. */
export function InstallationScreen() {
  const notices = useLoad(() => get<Notice[]>("/api/notices"), []);
  const health = useLoad(() => get<InstallationHealth>("/api/installation/health"), []);
  return (
    <>
      <h1 tabIndex={-1}>Instalación</h1>
      <section class="card" aria-labelledby="notices-title">
        <h2 id="notices-title">Avisos</h2>
        <Loads loaded={notices} empty="Ningún aviso.">
          {(list) => (
            <ul class="stack" data-testid="notices">
              {list.map((notice) => (
                <li key={notice.code} class={`alert ${notice.level === "warning" ? "alert-warning" : "alert-ok"}`}
                  data-testid={`notice-${notice.code}`}>{notice.message}</li>
              ))}
            </ul>
          )}
        </Loads>
      </section>
      <section class="card" aria-labelledby="health-title">
        <h2 id="health-title">Comprobaciones</h2>
        <Loads loaded={health}>
          {(view) => (
            <CardTable label="Comprobaciones" testId="health">
                <thead>
                  <tr><th scope="col">Comprobación</th><th scope="col">Estado</th><th scope="col">Detalle</th></tr>
                </thead>
                <tbody>
                  {view.checks.filter((check) => check.state !== "off").map((check) => (
                    <tr key={check.name} data-testid={`check-${check.name}`}>
                      <td>{CHECK_NAMES[check.name] ?? check.name}</td>
                      <td>
                        <span class={`pill ${check.state === "ok" ? "pill-ok" : check.state === "failing" ? "pill-off" : ""}`}>
                          {STATE_LABELS[check.state] ?? check.state}
                        </span>
                      </td>
                      <td>{check.detail ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
            </CardTable>
          )}
        </Loads>
        {(health.data?.checks.filter((check) => check.state === "off").length ?? 0) > 0 && (
          // Issue 40 item 13: what is off is said once, not listed as "no configurado" row after row.
          <p class="muted small" data-testid="checks-off">Desactivado en esta instalación: {health.data?.checks
            .filter((check) => check.state === "off").map((check) => CHECK_NAMES[check.name] ?? check.name).join(", ")}.</p>
        )}
      </section>
      <NotifyDestinations />
      {health.data?.checks.some((check) => check.name === "oauth_clients" && check.state !== "off") && (
        <OAuthClients onPurged={health.reload} />
      )}
    </>
  );
}
