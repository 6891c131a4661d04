import { useState } from "preact/hooks";
import { get, post, type Credential, type Issued, type Me } from "../api";
import { CREDENTIAL_STATUS, when } from "../format";
import { confirmAction } from "../ui/confirm";
import { message, useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { toast } from "../ui/toasts";
import { IssuedOnce } from "./IssuedOnce";
import { IssueForm } from "./IssueForm";

export function CredentialsPanel({ me }: { me: Me }) {
  const credentials = useLoad(() => get<Credential[]>("/api/credentials"), []);
  const [issued, setIssued] = useState<Issued | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const own = credentials.data?.filter((credential) => credential.subject_id === me.id);

  const revoke = async (credential: Credential) => {
    const answer = await confirmAction({
      title: "Revocar credencial",
      body: <p>La credencial <strong>{credential.name || credential.id}</strong> dejará de funcionar al momento, también en las conexiones abiertas. No se puede deshacer.</p>,
      confirmLabel: "Revocar",
      danger: true,
      reasonLabel: "Motivo (opcional)",
    });
    if (!answer) {
      return;
    }
    setFailure(null);
    try {
      await post(`/api/credentials/${encodeURIComponent(credential.id)}/revoke`, answer.reason ? { reason: answer.reason } : {});
      toast("Credencial revocada.");
      credentials.reload();
    } catch (error) {
      setFailure(message(error));
    }
  };

  return (
    <section class="card" aria-labelledby="credentials-title">
      <h2 id="credentials-title">Mis credenciales</h2>
      <p class="muted">Una credencial es un token <code>klt_</code> con un kubeconfig para usar <code>kubectl</code> a través de Klave.</p>
      {issued ? (
        <IssuedOnce issued={issued} onDone={() => setIssued(null)} />
      ) : (
        <IssueForm me={me} onIssued={(value) => {
          setIssued(value);
          credentials.reload();
        }} />
      )}
      {failure && <div class="alert alert-error" role="alert">{failure}</div>}
      <h3>Emitidas</h3>
      <Loads loaded={{ ...credentials, data: own }} empty="Todavía no has emitido ninguna credencial.">
        {(list) => (
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Tabla (desplázala si no cabe en la pantalla)">
            <table>
              <thead>
                <tr>
                  <th scope="col">Nombre</th>
                  <th scope="col">Cluster</th>
                  <th scope="col">Emitida</th>
                  <th scope="col">Caduca</th>
                  <th scope="col">Estado</th>
                  <th scope="col"><span class="visually-hidden">Acciones</span></th>
                </tr>
              </thead>
              <tbody>
                {list.map((credential) => (
                  <tr key={credential.id} data-testid="credential-row">
                    <td>{credential.name || <span class="muted">sin nombre</span>}{credential.note && <div class="muted small">{credential.note}</div>}</td>
                    <td>{credential.cluster_id ?? "todos mis clusters"}</td>
                    <td>{when(credential.created_at)}</td>
                    <td>{when(credential.expires_at)}</td>
                    <td>
                      <span class={`pill ${credential.status === "active" ? "pill-ok" : "pill-off"}`}>
                        {CREDENTIAL_STATUS[credential.status] ?? credential.status}
                      </span>
                      {credential.revoke_reason && <div class="muted small">{credential.revoke_reason}</div>}
                    </td>
                    <td>{credential.status === "active" && (
                      <button type="button" class="button button-small button-danger" onClick={() => revoke(credential)}
                        aria-label={`Revocar credencial ${credential.name || credential.id}`}>Revocar</button>
                    )}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loads>
    </section>
  );
}
