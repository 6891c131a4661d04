import { TIER_NAMES } from "../format";
import type { Grant } from "../api";
import { CardTable } from "./CardTable";
import { when } from "../format";

/**
 * Revoked, expired, in force — or kept without counting: spec 1 §3, a disabled account's grants
 * are kept but do not count (the API gives them as not active, neither revoked nor expired).
 */
function GrantState({ grant }: { grant: Grant }) {
  if (grant.revoked_at) {
    return <span class="pill pill-off">revocado</span>;
  }
  if (grant.active) {
    return <span class="pill pill-ok">activo</span>;
  }
  if (grant.expires_at && new Date(grant.expires_at).getTime() <= Date.now()) {
    return <span class="pill pill-off">caducado</span>;
  }
  return (
    <>
      <span class="pill pill-off" data-testid="grant-kept">sin efecto</span>
      <div class="muted small">la cuenta está deshabilitada: el permiso se conserva, pero no cuenta</div>
    </>
  );
}

/**
 * Where a grant comes from (issue 41): an access request (its reason, who approved it), an
 * expiry of its own, or standing — the exception, said as such.
 */
function GrantOrigin({ grant }: { grant: Grant }) {
  if (grant.request) {
    const by = grant.request.approved_by;
    return (
      <div data-testid="grant-origin">
        <span class="pill pill-info">{grant.request.origin === "eligible" ? "activado" : "por solicitud"}</span>
        <div class="muted small wrap">«{grant.request.reason}»{by && grant.request.origin !== "eligible"
          ? ` · aprobó ${by}` : ""} · <a href={`/acceso/solicitudes/${encodeURIComponent(grant.request.request_id)}`}>
          ver la solicitud</a></div>
      </div>
    );
  }
  return grant.expires_at
    ? <span class="pill pill-neutral" data-testid="grant-origin">temporal</span>
    : <span class="pill pill-warning" data-testid="grant-origin" title="Acceso permanente: no caduca ni se pidió">
      permanente</span>;
}

export function GrantsTable({ grants, showSubject, onRevoke, label = "Permisos" }: {
  grants: Grant[];
  label?: string;
  showSubject: boolean;
  onRevoke?: (grant: Grant) => void;
}) {
  return (
    <CardTable label={label}>
        <thead>
          <tr>
            {showSubject && <th scope="col">Usuario</th>}
            <th scope="col">Cluster</th>
            <th scope="col">Nivel</th>
            <th scope="col">Ámbito</th>
            <th scope="col">Caduca</th>
            <th scope="col">Origen</th>
            <th scope="col">Nota</th>
            <th scope="col">Estado</th>
            {onRevoke && <th scope="col"><span class="visually-hidden">Acciones</span></th>}
          </tr>
        </thead>
        <tbody>
          {grants.map((grant) => (
            <tr key={grant.id} data-testid={`grant-${grant.id}`}>
              {showSubject && <td>{grant.subject_login}</td>}
              <td>{grant.cluster_id}</td>
              <td><span class="badge" title={TIER_NAMES[grant.tier] ?? grant.tier}>{grant.tier}</span>
                {TIER_NAMES[grant.tier] && <div class="muted small">{TIER_NAMES[grant.tier]}</div>}</td>
              <td><code>{grant.scope === "*" ? "* (todo el cluster)" : grant.scope}</code></td>
              <td>{grant.expires_at ? when(grant.expires_at) : "no caduca"}</td>
              <td><GrantOrigin grant={grant} /></td>
              <td class="wrap">{grant.note || "—"}</td>
              <td><GrantState grant={grant} /></td>
              {onRevoke && (
                <td>{!grant.revoked_at && (
                  <button type="button" class="button button-small button-danger"
                    onClick={() => onRevoke(grant)} aria-label={`Revocar permiso ${grant.tier} de ${grant.subject_login} en ${grant.cluster_id}/${grant.scope}`}>
                    Revocar
                  </button>
                )}</td>
              )}
            </tr>
          ))}
        </tbody>
    </CardTable>
  );
}
