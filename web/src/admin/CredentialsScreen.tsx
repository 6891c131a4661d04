import { useState } from "preact/hooks";
import { get, post, type Credential, type Issued, type Me, type Subject } from "../api";
import { CREDENTIAL_STATUS, when } from "../format";
import { navigate, useLocation } from "../router";
import { IssuedOnce } from "../screens/IssuedOnce";
import { IssueForm } from "../screens/IssueForm";
import { confirmAction } from "../ui/confirm";
import { message, useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { toast } from "../ui/toasts";

const STATES = [
  { value: "", label: "Todas" },
  { value: "active", label: "Activas" },
  { value: "revoked", label: "Revocadas" },
  { value: "expired", label: "Caducadas" },
];

/**
 * Every credential, for administrators: owner, name, cluster, issued, expires, state and why it was
 * revoked; filtered by owner and state (both in the URL, so the filters, the inputs and the address
 * always agree); revoked with a reason; issued for anyone, bots included.
 */
export function CredentialsScreen({ me }: { me: Me }) {
  const { search } = useLocation();
  const owner = search.get("owner") ?? "";
  const state = search.get("state") ?? "";
  const credentials = useLoad(() => get<Credential[]>("/api/credentials"), []);
  const subjects = useLoad(() => get<Subject[]>("/api/subjects"), []);
  const [issuing, setIssuing] = useState("");
  const [issued, setIssued] = useState<Issued | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const filter = (next: { owner?: string; state?: string }) => {
    const params = new URLSearchParams();
    const nextOwner = next.owner ?? owner;
    const nextState = next.state ?? state;
    if (nextOwner) params.set("owner", nextOwner);
    if (nextState) params.set("state", nextState);
    const text = params.toString();
    navigate(`/admin/credenciales${text ? `?${text}` : ""}`);
  };

  const revoke = async (credential: Credential) => {
    const answer = await confirmAction({
      title: "Revocar credencial",
      body: <p>La credencial <strong>{credential.name || credential.id}</strong> de {credential.subject_login} dejará de funcionar al momento, también en las conexiones abiertas. No se puede deshacer.</p>,
      confirmLabel: "Revocar", danger: true, reasonLabel: "Motivo (opcional)",
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

  const shown = credentials.data?.filter((credential) => (!owner || credential.subject_id === owner)
    && (!state || credential.status === state));
  const people = subjects.data ?? [];

  return (
    <>
      <h1 tabIndex={-1}>Credenciales</h1>
      <p class="lead">Todas las credenciales, de personas y de bots. Un bot solo entra con credenciales: emítele una aquí.</p>
      <section class="card" aria-labelledby="issue-title">
        <h2 id="issue-title">Emitir para otra cuenta</h2>
        {issued ? (
          <IssuedOnce issued={issued} onDone={() => setIssued(null)} />
        ) : (
          <>
            <label class="field">
              <span>Para</span>
              <select value={issuing} onChange={(event) => setIssuing(event.currentTarget.value)} name="subject">
                <option value="">Elige una persona o un bot…</option>
                {people.filter((subject) => subject.enabled).map((subject) => (
                  <option key={subject.id} value={subject.id}>
                    {subject.login} ({subject.kind === "bot" ? "bot" : "persona"})
                  </option>
                ))}
              </select>
            </label>
            {issuing && <IssueForm me={me} subjectId={issuing} onIssued={(value) => {
              setIssued(value);
              credentials.reload();
            }} />}
          </>
        )}
      </section>
      <section class="card" aria-labelledby="all-credentials-title">
        <h2 id="all-credentials-title">Todas</h2>
        <div class="form-grid" role="search" aria-label="Filtrar credenciales">
          <label class="field">
            <span>Titular</span>
            <select value={owner} onChange={(event) => filter({ owner: event.currentTarget.value })} name="owner">
              <option value="">Todos</option>
              {people.map((subject) => <option key={subject.id} value={subject.id}>{subject.login}</option>)}
            </select>
          </label>
          <label class="field">
            <span>Estado</span>
            <select value={state} onChange={(event) => filter({ state: event.currentTarget.value })} name="state">
              {STATES.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
            </select>
          </label>
        </div>
        {failure && <div class="alert alert-error" role="alert">{failure}</div>}
        <Loads loaded={{ ...credentials, data: shown }} empty="Ninguna credencial con estos filtros.">
          {(list) => (
            <div class="table-wrap" tabIndex={0} role="region" aria-label="Credenciales (desplaza para ver todas las columnas)">
              <table data-testid="all-credentials">
                <thead>
                  <tr>
                    <th scope="col">Titular</th>
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
                    <tr key={credential.id} data-testid={`credential-${credential.id}`}>
                      <td>{credential.subject_login}</td>
                      <td>{credential.name || <span class="muted">sin nombre</span>}
                        {credential.note && <div class="muted small">{credential.note}</div>}
                        <div class="muted small"><a href={`/admin/auditoria?credential=${encodeURIComponent(credential.id)}`}
                          title="Ver las peticiones hechas con esta credencial"><code>{credential.id}</code></a></div></td>
                      <td>{credential.cluster_id ?? "todos sus clusters"}</td>
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
                          aria-label={`Revocar credencial ${credential.name || credential.id} de ${credential.subject_login}`}>
                          Revocar</button>
                      )}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Loads>
      </section>
    </>
  );
}
