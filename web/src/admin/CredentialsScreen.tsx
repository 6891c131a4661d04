import { useEffect, useState } from "preact/hooks";
import { get, query, type Credential, type Issued, type Me, type Subject } from "../api";
import { navigate, useLocation } from "../router";
import { IssuedOnce } from "../screens/IssuedOnce";
import { IssueForm } from "../screens/IssueForm";
import { CredentialsTable, revokeCredential } from "../ui/CredentialsTable";
import { CursorPager, useCursorPages } from "../ui/cursorPages";
import { message, useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { SubjectSelect } from "../ui/SubjectSelect";

const STATES = [
  { value: "", label: "Todas" },
  { value: "active", label: "Activas" },
  { value: "revoked", label: "Revocadas" },
  { value: "expired", label: "Caducadas" },
];

/**
 * Every credential, for administrators: owner, name, cluster, issued, expires, state and why it was
 * revoked; filtered by owner, state and text (in the URL, so the filters, the inputs and the address
 * always agree) by the server, 50 at a time; revoked with a reason; issued for anyone, bots included.
 */
export function CredentialsScreen({ me }: { me: Me }) {
  const { search } = useLocation();
  const owner = search.get("owner") ?? "";
  const state = search.get("state") ?? "";
  const text = search.get("q") ?? "";
  const credentials = useCursorPages<Credential>(`/api/credentials${query({ subject: owner, status: state, q: text })}`);
  // What is typed goes to the address (and so to the server) once typing pauses.
  const [typed, setTyped] = useState(text);
  useEffect(() => setTyped(text), [text]);
  useEffect(() => {
    if (typed.trim() === text) {
      return undefined;
    }
    const timer = setTimeout(() => filter({ q: typed.trim() }, true), 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed]);
  // Arriving from a person's "Credenciales (n)" (?owner=…): issuing is for that person already.
  const [issuing, setIssuing] = useState(owner);
  useEffect(() => {
    if (owner) {
      setIssuing(owner);
    }
  }, [owner]);
  // Whether it is for a bot: a lookup of that one subject, not the whole list.
  const issuingSubject = useLoad(() => issuing
    ? get<Subject[]>(`/api/subjects${query({ id: issuing })}`) : Promise.resolve([] as Subject[]), [issuing]);
  const forBot = issuingSubject.data?.[0]?.kind === "bot";
  const [issued, setIssued] = useState<Issued | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  function filter(next: { owner?: string; state?: string; q?: string }, replace = false) {
    const params = new URLSearchParams();
    const nextOwner = next.owner ?? owner;
    const nextState = next.state ?? state;
    const nextText = next.q ?? text;
    if (nextOwner) params.set("owner", nextOwner);
    if (nextState) params.set("state", nextState);
    if (nextText) params.set("q", nextText);
    const address = params.toString();
    navigate(`/admin/credenciales${address ? `?${address}` : ""}`, replace);
  }

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
            <SubjectSelect label="Para" name="subject" empty="Elige una persona o un bot…" enabledOnly value={issuing}
              describe={(subject) => `${subject.login} (${subject.kind === "bot" ? "bot" : "persona"})`}
              onChange={setIssuing} />
            {issuing && <IssueForm me={me} subjectId={issuing}
              forBot={forBot} onIssued={(value) => {
              setIssued(value);
              credentials.reload();
            }} />}
          </>
        )}
      </section>
      <section class="card" aria-labelledby="all-credentials-title">
        <h2 id="all-credentials-title">Todas</h2>
        <div class="form-grid" role="search" aria-label="Filtrar credenciales">
          <SubjectSelect label="Titular" name="owner" empty="Todos" value={owner} onChange={(id) => filter({ owner: id })} />
          <label class="field">
            <span>Estado</span>
            <select value={state} onChange={(event) => filter({ state: event.currentTarget.value })} name="state">
              {STATES.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
            </select>
          </label>
          <label class="field">
            <span>Buscar</span>
            <input type="search" name="q" value={typed} placeholder="nombre o login del titular"
              onInput={(event) => setTyped(event.currentTarget.value)} />
          </label>
        </div>
        {failure && <div class="alert alert-error" role="alert">{failure}</div>}
        <Loads loaded={{ ...credentials, data: credentials.data?.items }} empty="Ninguna credencial con estos filtros.">
          {(list) => <CredentialsTable credentials={list} showOwner onRevoke={revoke} testId="all-credentials" label="Todas las credenciales"
            rowTestId={(credential) => `credential-${credential.id}`} />}
        </Loads>
        <CursorPager pages={credentials} label="Páginas de credenciales" />
      </section>
    </>
  );
}
