import { get, type InstallationHealth, type Notice } from "../api";
import { useLoad } from "../ui/load";
import { CardTable } from "../ui/CardTable";
import { Loads } from "../ui/states";

const CHECK_NAMES: Record<string, string> = {
  database: "Base de datos",
  admin_can_sign_in: "Algún administrador puede entrar",
  oidc_discovery: "Descubrimiento del proveedor OIDC",
  forge_sync: "Sincronización con Forge",
};

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
                  {view.checks.map((check) => (
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
      </section>
    </>
  );
}
