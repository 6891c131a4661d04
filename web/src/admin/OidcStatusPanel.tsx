import { get, type InstallationHealth, type OidcStatus } from "../api";
import { when } from "../format";
import { useLoad } from "../ui/load";

/**
 * OIDC as administrators need to see it (spec 2 §4 GET /api/oidc/status, §5 "Discovery"): the
 * provider, domains and policy, and the discovery document: fetched with a date, not fetched
 * yet, or the last fetch failed with its error. Nothing is shown while OIDC is off.
 */
export function OidcStatusPanel() {
  const status = useLoad(() => get<OidcStatus>("/api/oidc/status"), []);
  // The failure in Spanish comes from the installation's health check (one wording, the server's).
  const health = useLoad(() => get<InstallationHealth>("/api/installation/health"), []);
  const explained = health.data?.checks.find((check) => check.name === "oidc_discovery" && check.state === "failing")
    ?.detail;
  const oidc = status.data;
  if (!oidc || !oidc.configured) {
    return null;
  }
  const discovery = oidc.discovery;
  return (
    <section class="card" aria-labelledby="oidc-title" data-testid="oidc-status">
      <h2 id="oidc-title">{oidc.display_name}</h2>
      <dl class="facts">
        <dt>Emisor</dt><dd>{oidc.issuer}</dd>
        <dt>Dominios</dt><dd>{oidc.domains.join(", ")}</dd>
        <dt>Vinculación por correo</dt>
        <dd>{{ all: "cualquier cuenta", invited: "solo cuentas sin estrenar o con enlace", off: "nunca" }[oidc.autolink ?? ""] ?? oidc.autolink}</dd>
        <dt>Cliente</dt><dd>{oidc.public_client ? "público (PKCE, sin secreto)" : "confidencial"}</dd>
        <dt>Descubrimiento</dt>
        <dd data-testid="oidc-discovery">
          {discovery === null || (discovery.fetched_at === null && discovery.failed_at === null)
            ? "todavía sin leer"
            : discovery.error
              ? <div class="alert alert-error alert-stack" role="alert">
                <p>Falló el {when(discovery.failed_at)}: {explained ?? "no se pudo leer el documento de descubrimiento"}.</p>
                <p class="small">Detalle técnico: <code>{discovery.error}</code></p>
              </div>
              : `leído ${when(discovery.fetched_at)}`}
        </dd>
      </dl>
    </section>
  );
}
