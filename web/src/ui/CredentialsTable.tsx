import { post, type Credential } from "../api";
import { CREDENTIAL_STATUS, when } from "../format";
import { CardTable } from "./CardTable";
import { confirmAction } from "./confirm";
import { toast } from "./toasts";

/**
 * Asks, then revokes {@code credential} with the reason given (spec 1 §4 "Credentials"); true when
 * it was revoked. A failure is thrown for the screen to show.
 */
export async function revokeCredential(credential: Credential, owner?: string): Promise<boolean> {
  const answer = await confirmAction({
    title: "Revocar credencial",
    body: <p>La credencial <strong>{credential.name || credential.id}</strong>{owner ? ` de ${owner}` : ""} dejará de funcionar al momento, también en las conexiones abiertas. No se puede deshacer.</p>,
    confirmLabel: "Revocar", danger: true, reasonLabel: "Motivo (opcional)",
  });
  if (!answer) {
    return false;
  }
  await post(`/api/credentials/${encodeURIComponent(credential.id)}/revoke`, answer.reason ? { reason: answer.reason } : {});
  toast("Credencial revocada.");
  return true;
}

/** Credentials with their state and why they were revoked; the owner column for administrators. */
export function CredentialsTable({ credentials, showOwner, onRevoke, testId, rowTestId, label = "Credenciales" }: {
  credentials: Credential[];
  label?: string;
  showOwner: boolean;
  onRevoke: (credential: Credential) => void;
  testId?: string;
  rowTestId?: (credential: Credential) => string;
}) {
  return (
    <CardTable label={label} testId={testId}>
        <thead>
          <tr>
            {showOwner && <th scope="col">Titular</th>}
            <th scope="col">Nombre</th>
            <th scope="col">Cluster</th>
            <th scope="col">Emitida</th>
            <th scope="col">Caduca</th>
            <th scope="col">Estado</th>
            <th scope="col"><span class="visually-hidden">Acciones</span></th>
          </tr>
        </thead>
        <tbody>
          {credentials.map((credential) => (
            <tr key={credential.id} data-testid={rowTestId ? rowTestId(credential) : "credential-row"}>
              {showOwner && <td>{credential.subject_login}</td>}
              <td>{credential.name || <span class="muted">sin nombre</span>}
                {credential.note && <div class="muted small">{credential.note}</div>}
                {showOwner && <div class="muted small"><a href={`/admin/auditoria?credential=${encodeURIComponent(credential.id)}`}
                  title="Ver las peticiones hechas con esta credencial"><code>{credential.id}</code></a></div>}</td>
              <td>{credential.cluster_id ?? (showOwner ? "todos sus clusters" : "todos mis clusters")}</td>
              <td>{when(credential.created_at)}</td>
              <td>{when(credential.expires_at)}</td>
              <td>
                <span class={`pill ${credential.status === "active" ? "pill-ok" : "pill-off"}`}>
                  {CREDENTIAL_STATUS[credential.status] ?? credential.status}
                </span>
                {credential.revoke_reason && <div class="muted small">{credential.revoke_reason}</div>}
              </td>
              <td>{credential.status === "active" && (
                <button type="button" class="button button-small button-danger" onClick={() => onRevoke(credential)}
                  aria-label={`Revocar credencial ${credential.name || credential.id}${showOwner ? ` de ${credential.subject_login}` : ""}`}>
                  Revocar</button>
              )}</td>
            </tr>
          ))}
        </tbody>
    </CardTable>
  );
}
