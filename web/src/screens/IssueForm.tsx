import { useState } from "preact/hooks";
import { get, post, query, type Grant, type Issued, type Me } from "../api";
import { message, useLoad } from "../ui/load";

const TTLS = [
  { value: "1h", label: "1 hora" },
  { value: "12h", label: "12 horas" },
  { value: "1d", label: "1 día" },
  { value: "7d", label: "7 días" },
  { value: "30d", label: "30 días" },
];
/** Spec 1 §8: people's credentials last 30 days at most by default; bots' have no limit. */
const BOT_TTLS = [...TTLS, { value: "90d", label: "90 días" }];

/**
 * Issues a credential for {@code me}, or, for an administrator, for the subject given (a person or a
 * bot: spec 1 §2 "Credential", {@code subject_id}).
 */
export function IssueForm({ me, onIssued, subjectId, forBot = false }: {
  me: Me; onIssued: (issued: Issued) => void; subjectId?: string;
  /** The owner is a bot: longer lifetimes are offered. */
  forBot?: boolean;
}) {
  const owner = subjectId ?? me.id;
  const grants = useLoad(() => get<Grant[]>(`/api/grants${query({ subject: owner })}`), [owner]);
  const clusters = [...new Set((grants.data ?? []).filter((grant) => grant.active).map((grant) => grant.cluster_id))].sort();
  const [ttl, setTtl] = useState("12h");
  const [cluster, setCluster] = useState("");
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const body: Record<string, string> = { ttl };
      if (name) body.name = name;
      if (note) body.note = note;
      if (cluster) body.cluster_id = cluster;
      if (owner !== me.id) body.subject_id = owner;
      onIssued(await post<Issued>("/api/credentials", body));
      setName("");
      setNote("");
    } catch (error) {
      setFailure(message(error, { ttl: "Duración", cluster_id: "Cluster", name: "Nombre", note: "Nota" }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} class="form-grid" aria-label="Emitir credencial" onInvalidCapture={() => setFailure(null)}>
      <label class="field">
        <span>Duración</span>
        <select value={ttl} onChange={(event) => setTtl(event.currentTarget.value)} name="ttl">
          {(forBot ? BOT_TTLS : TTLS).map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
        </select>
      </label>
      <label class="field">
        <span>Cluster (opcional)</span>
        <select value={cluster} onChange={(event) => setCluster(event.currentTarget.value)} name="cluster">
          <option value="">{owner === me.id ? "Todos mis clusters" : "Todos sus clusters"}</option>
          {clusters.map((id) => <option key={id} value={id}>{id}</option>)}
        </select>
      </label>
      <label class="field">
        <span>Nombre</span>
        <input name="name" value={name} maxLength={100} placeholder="p. ej. portátil"
          onInput={(event) => setName(event.currentTarget.value)} />
      </label>
      <label class="field">
        <span>Nota</span>
        <input name="note" value={note} maxLength={500} onInput={(event) => setNote(event.currentTarget.value)} />
      </label>
      {failure && <div class="alert alert-error span-all" role="alert">{failure}
        {/* Issue 41: a refusal for lack of a grant names where to ask for one. */}
        {/^sin permisos activos/i.test(failure) && <> <a href="/acceso/pedir" data-testid="ask-access-link">Pedir
          acceso</a></>}</div>}
      {grants.data && clusters.length === 0 && (
        <p class="muted span-all" id="issue-blocked" data-testid="issue-blocked">
          {owner === me.id ? <>Todavía no tienes permisos en ningún cluster: <a href="/acceso/pedir">pide acceso</a> y,
            cuando te lo aprueben, podrás emitir una credencial.</>
            : "Esta cuenta no tiene permisos en ningún cluster: concédele uno antes de emitir su credencial."}</p>
      )}
      <div class="span-all">
        <button type="submit" class="button button-primary" disabled={busy || (grants.data !== undefined && clusters.length === 0)}
          aria-describedby={grants.data && clusters.length === 0 ? "issue-blocked" : undefined}>
          {busy ? "Emitiendo…" : "Emitir credencial"}</button>
      </div>
    </form>
  );
}
