import { TIER_NAMES } from "../format";
import type { Grant } from "../api";
import { when } from "../format";

export function GrantsTable({ grants, showSubject, onRevoke }: {
  grants: Grant[];
  showSubject: boolean;
  onRevoke?: (grant: Grant) => void;
}) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Tabla (desplázala si no cabe en la pantalla)">
      <table>
        <thead>
          <tr>
            {showSubject && <th scope="col">Usuario</th>}
            <th scope="col">Cluster</th>
            <th scope="col">Nivel</th>
            <th scope="col">Ámbito</th>
            <th scope="col">Caduca</th>
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
              <td>{grant.note || "—"}</td>
              <td>{grant.revoked_at
                ? <span class="pill pill-off">revocado</span>
                : grant.active ? <span class="pill pill-ok">activo</span> : <span class="pill pill-off">caducado</span>}</td>
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
      </table>
    </div>
  );
}
