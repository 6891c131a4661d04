import { get, type ForgeStatus } from "../api";
import { when } from "../format";
import { useLoad } from "../ui/load";

/**
 * The forge as administrators need to see it (spec 1 §4 GET /api/forge/status): whether it is
 * configured, the organisation, the webhook, the two-factor rule and the last member sync with
 * its counts and error. Nothing is shown while the forge is off.
 */
export function ForgeStatusPanel() {
  const status = useLoad(() => get<ForgeStatus>("/api/forge/status"), []);
  const forge = status.data;
  if (!forge || !forge.configured) {
    return null;
  }
  const sync = forge.last_sync;
  return (
    <section class="card" aria-labelledby="forge-title" data-testid="forge-status">
      <h2 id="forge-title">Forge</h2>
      <dl class="facts">
        <dt>Organización</dt><dd>{forge.org}</dd>
        <dt>Webhook</dt><dd>{forge.webhook ? "activo: las bajas de la organización deshabilitan al momento" : "sin configurar: las bajas llegan con la sincronización horaria"}</dd>
        <dt>Doble factor</dt>
        <dd>{forge.require_org_2fa ? "exigido a la organización" : "no exigido"}
          {sync && sync.two_factor_required === null && <div class="muted small">La App no puede comprobarlo: dale el permiso Administration (lectura).</div>}
          {sync && sync.two_factor_required === false && <div class="muted small">La organización no exige doble factor.</div>}
        </dd>
        <dt>Última sincronización</dt>
        <dd data-testid="forge-last-sync">
          {sync === null ? "todavía ninguna (la primera, un minuto después de arrancar)" : (
            <>
              {when(sync.finished_at)}: {sync.members_seen} miembros, {sync.disabled} deshabilitados, {sync.renamed} renombrados
              {sync.error && <div class="alert alert-error" role="alert">Sincronización interrumpida, nadie deshabilitado: {sync.error}</div>}
            </>
          )}
        </dd>
      </dl>
    </section>
  );
}
