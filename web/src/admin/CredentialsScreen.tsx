import { useEffect, useState } from "preact/hooks";
import { get, type Credential, type Issued, type Me, type Subject } from "../api";
import { navigate, useLocation } from "../router";
import { IssuedOnce } from "../screens/IssuedOnce";
import { IssueForm } from "../screens/IssueForm";
import { CredentialsTable, revokeCredential } from "../ui/CredentialsTable";
import { message, useLoad } from "../ui/load";
import { Loads } from "../ui/states";

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
  // Arriving from a person's "Credenciales (n)" (?owner=…): issuing is for that person already.
  const [issuing, setIssuing] = useState(owner);
  useEffect(() => {
    if (owner) {
      setIssuing(owner);
    }
  }, [owner]);
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
    setFailure(null);
    try {
      if (await revokeCredential(credential, credential.subject_login)) {
        credentials.reload();
      }
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
        <h2 id="issue-title" tabIndex={-1}>Emitir para otra cuenta</h2>
        {issued ? (
          <IssuedOnce issued={issued} onDone={() => setIssued(null)} returnFocusTo="issue-title" />
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
            {issuing && <IssueForm me={me} subjectId={issuing}
              forBot={people.find((subject) => subject.id === issuing)?.kind === "bot"} onIssued={(value) => {
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
          {(list) => <CredentialsTable credentials={list} showOwner onRevoke={revoke} testId="all-credentials" label="Todas las credenciales"
            rowTestId={(credential) => `credential-${credential.id}`} />}
        </Loads>
      </section>
    </>
  );
}
