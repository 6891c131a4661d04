import { useState } from "preact/hooks";
import { get, type Credential, type Issued, type Me } from "../api";
import { CredentialsTable, revokeCredential } from "../ui/CredentialsTable";
import { message, useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { IssuedOnce } from "./IssuedOnce";
import { IssueForm } from "./IssueForm";

export function CredentialsPanel({ me }: { me: Me }) {
  const credentials = useLoad(() => get<Credential[]>("/api/credentials"), []);
  const [issued, setIssued] = useState<Issued | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const own = credentials.data?.filter((credential) => credential.subject_id === me.id);

  const revoke = async (credential: Credential) => {
    setFailure(null);
    try {
      if (await revokeCredential(credential)) {
        credentials.reload();
      }
    } catch (error) {
      setFailure(message(error));
    }
  };

  return (
    <section class="card" aria-labelledby="credentials-title">
      <h2 id="credentials-title" tabIndex={-1}>Mis credenciales</h2>
      <p class="muted">Una credencial es un token <code>klt_</code> con un kubeconfig para usar <code>kubectl</code> a través de Klave.</p>
      {issued ? (
        <IssuedOnce issued={issued} onDone={() => setIssued(null)} returnFocusTo="credentials-title" />
      ) : (
        <IssueForm me={me} onIssued={(value) => {
          setIssued(value);
          credentials.reload();
        }} />
      )}
      {failure && <div class="alert alert-error" role="alert">{failure}</div>}
      <h3>Emitidas</h3>
      <Loads loaded={{ ...credentials, data: own }} empty="Todavía no has emitido ninguna credencial.">
        {(list) => <CredentialsTable credentials={list} showOwner={false} onRevoke={revoke} label="Mis credenciales emitidas" />}
      </Loads>
    </section>
  );
}
