// Eligible grants for administrators (issue 41): given to a person who activates them when needed,
// listed beside the standing grants, revoked here. Activations already running end on their own
// (or with their grant, revoked in "Concedidos").
import { useState } from "preact/hooks";
import { del, get, post, type AccessOptions, type Cluster, type EligibleGrant } from "../api";
import { TIER_NAMES } from "../format";
import { confirmAction } from "../ui/confirm";
import { CardTable } from "../ui/CardTable";
import { message, useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { SubjectSelect } from "../ui/SubjectSelect";
import { toast } from "../ui/toasts";
import { durationText } from "./AskAccessForm";

const MAXIMA = [15, 30, 60, 120, 240, 480, 720, 1440];

function EligibleForm({ clusters, onCreated }: { clusters: Cluster[]; onCreated: () => void }) {
  // The tiers a person may be given to activate are the server's to say (issue 52), never a list here.
  const options = useLoad(() => get<AccessOptions>("/api/access/options"), []);
  const [subject, setSubject] = useState("");
  const [cluster, setCluster] = useState("");
  const [tier, setTier] = useState("edit");
  const [scope, setScope] = useState("");
  const [maxMinutes, setMaxMinutes] = useState(240);
  const [approval, setApproval] = useState(false);
  const [note, setNote] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      // Issue 51 §8: the scope is asked for, never assumed — an empty one is not the whole cluster.
      await post("/api/access/eligible", { subject_id: subject, cluster_id: cluster, tier, scope: scope.trim(),
        max_minutes: maxMinutes, needs_approval: approval, note });
      setNote("");
      onCreated();
    } catch (error) {
      setFailure(message(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} class="form-grid" data-testid="eligible-form" onInvalidCapture={() => setFailure(null)}>
      <SubjectSelect label="Persona" name="eligible-subject" empty="Elige…" required enabledOnly value={subject}
        describe={(item) => item.login} onChange={setSubject} />
      <label class="field">
        <span>Cluster</span>
        <select name="eligible-cluster" required value={cluster} onChange={(event) => setCluster(event.currentTarget.value)}>
          <option value="">Elige…</option>
          {clusters.map((item) => <option key={item.id} value={item.id}>{item.id} — {item.name}</option>)}
        </select>
      </label>
      <label class="field">
        <span>Nivel</span>
        <select name="eligible-tier" value={tier} onChange={(event) => setTier(event.currentTarget.value)}>
          {(options.data?.tiers ?? []).map((item) => <option key={item} value={item}>{TIER_NAMES[item] ?? item}</option>)}
        </select>
      </label>
      <label class="field">
        <span>Ámbito</span>
        <input name="eligible-scope" value={scope} placeholder="namespace, o * para todo el cluster" maxLength={63}
          required pattern="\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?"
          onInput={(event) => setScope(event.currentTarget.value)} />
      </label>
      <label class="field">
        <span>Como mucho</span>
        <select name="eligible-max" value={String(maxMinutes)}
          onChange={(event) => setMaxMinutes(Number(event.currentTarget.value))}>
          {MAXIMA.map((value) => <option key={value} value={value}>{durationText(value)}</option>)}
        </select>
      </label>
      <label class="check">
        <input type="checkbox" name="eligible-approval" checked={approval}
          onChange={(event) => setApproval(event.currentTarget.checked)} /> Cada activación necesita aprobación
      </label>
      <label class="field span-all">
        <span>Nota</span>
        <input name="eligible-note" value={note} maxLength={500} placeholder="p. ej. guardia de la plataforma"
          onInput={(event) => setNote(event.currentTarget.value)} />
      </label>
      {failure && <div class="alert alert-error span-all" role="alert">{failure}</div>}
      <div class="span-all">
        <button type="submit" class="button button-primary" disabled={busy}>Dar permiso elegible</button>
      </div>
    </form>
  );
}

export function EligibleGrants({ clusters }: { clusters: Cluster[] }) {
  const [version, setVersion] = useState(0);
  const [giving, setGiving] = useState(false);
  const list = useLoad(() => get<EligibleGrant[]>("/api/access/eligible"), [version]);
  const reload = () => setVersion((value) => value + 1);
  const revoke = async (grant: EligibleGrant) => {
    if (!(await confirmAction({
      title: "Retirar el permiso elegible",
      body: <p><strong>{grant.subject_login}</strong> ya no podrá activar <code>{grant.tier}</code> en{" "}
        <code>{grant.cluster_id}/{grant.scope}</code>. Lo que ya activó sigue hasta su fin.</p>,
      confirmLabel: "Retirar", danger: true,
    }))) {
      return;
    }
    try {
      await del(`/api/access/eligible/${encodeURIComponent(grant.id)}`);
      toast("Permiso elegible retirado.");
    } catch (error) {
      toast(message(error));
    }
    reload();
  };
  return (
    <section class="card" aria-labelledby="eligible-title" data-testid="eligible-grants">
      <h2 id="eligible-title">Elegibles</h2>
      <p class="muted">Un permiso elegible no da acceso por sí mismo: la persona lo activa cuando lo necesita, con un
        motivo, durante un rato (con o sin aprobación). Así el acceso permanente queda como la excepción.</p>
      {giving
        ? <EligibleForm clusters={clusters} onCreated={() => { toast("Permiso elegible dado."); reload(); }} />
        : <button type="button" class="button" onClick={() => setGiving(true)}>Dar un permiso elegible</button>}
      <Loads loaded={list} empty="Nadie tiene permisos elegibles todavía.">
        {(grants) => (
          <CardTable label="Permisos elegibles">
            <thead>
              <tr>
                <th scope="col">Persona</th><th scope="col">Cluster</th><th scope="col">Nivel</th>
                <th scope="col">Ámbito</th><th scope="col">Como mucho</th><th scope="col">Aprobación</th>
                <th scope="col"><span class="visually-hidden">Acciones</span></th>
              </tr>
            </thead>
            <tbody>
              {grants.map((grant) => (
                <tr key={grant.id} data-testid={`eligible-row-${grant.id}`}>
                  <td class="wrap">{grant.subject_login}</td>
                  <td>{grant.cluster_id}</td>
                  <td><span class="badge">{grant.tier}</span></td>
                  <td><code>{grant.scope === "*" ? "* (todo el cluster)" : grant.scope}</code></td>
                  <td>{durationText(grant.max_minutes)}</td>
                  <td>{grant.needs_approval ? "sí" : "no"}</td>
                  <td><button type="button" class="button button-small button-danger" onClick={() => revoke(grant)}
                    aria-label={`Retirar el permiso elegible ${grant.tier} de ${grant.subject_login} en ${
                      grant.cluster_id}/${grant.scope}`}>Retirar</button></td>
                </tr>
              ))}
            </tbody>
          </CardTable>
        )}
      </Loads>
    </section>
  );
}
