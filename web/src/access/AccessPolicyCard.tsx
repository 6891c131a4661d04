// How access to one cluster is asked for (issue 41), on the cluster's page: the longest a person may
// ask for, whether broad access needs two approvals, and who decides besides the administrators.
import { useState } from "preact/hooks";
import { get, query, type AccessPolicy, type Subject } from "../api";
import { message, useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { SubjectSelect } from "../ui/SubjectSelect";
import { toast } from "../ui/toasts";
import { durationText } from "./AskAccessForm";

const MAXIMA = [15, 30, 60, 120, 240, 480, 720, 1440];

async function put<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(path, { method: "PUT", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const parsed = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error((parsed as { error?: string }).error ?? `error ${response.status}`);
  }
  return parsed as T;
}

export function AccessPolicyCard({ cluster }: { cluster: string }) {
  const path = `/api/access/policies/${encodeURIComponent(cluster)}`;
  const loaded = useLoad(() => get<AccessPolicy>(path), [cluster]);
  return (
    <section class="card" aria-labelledby="policy-title" data-testid="access-policy">
      <h2 id="policy-title">Cómo se pide acceso</h2>
      {/* The form starts from the stored policy: shown only once it has arrived. */}
      <Loads loaded={loaded}>{(policy) => <PolicyForm path={path} policy={policy} />}</Loads>
    </section>
  );
}

function PolicyForm({ path, policy }: { path: string; policy: AccessPolicy }) {
  const [maxMinutes, setMaxMinutes] = useState(policy.max_minutes);
  const [two, setTwo] = useState(policy.two_approvals);
  const [deciders, setDeciders] = useState(policy.deciders);
  const [adding, setAdding] = useState("");
  const [failure, setFailure] = useState<string | null>(null);

  const add = async (id: string) => {
    setAdding("");
    if (!id || deciders.some((other) => other.id === id)) {
      return;
    }
    const [found] = await get<Subject[]>(`/api/subjects${query({ id })}`).catch(() => [] as Subject[]);
    if (found) {
      setDeciders((current) => [...current, { id, login: found.login }]);
    }
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setFailure(null);
    try {
      const saved = await put<AccessPolicy>(path, { max_minutes: maxMinutes, two_approvals: two,
        deciders: deciders.map((item) => item.id) });
      setDeciders(saved.deciders);
      toast("Guardado cómo se pide acceso a este cluster.");
    } catch (error) {
      setFailure(message(error));
    }
  };

  return (
    <form onSubmit={save} class="form-grid">
      <label class="field">
        <span>Como mucho</span>
        <select name="policy-max" value={String(maxMinutes)}
          onChange={(event) => setMaxMinutes(Number(event.currentTarget.value))}>
          {MAXIMA.map((value) => <option key={value} value={value}>{durationText(value)}</option>)}
        </select>
      </label>
      <label class="check">
        <input type="checkbox" name="policy-two" checked={two} onChange={(event) => setTwo(event.currentTarget.checked)} />
        Dos aprobaciones para «administrar» o todo el cluster
      </label>
      <div class="span-all">
        <p class="muted small">Deciden los administradores y, además, estas personas (nunca quien pide):</p>
        <ul class="plain" data-testid="policy-deciders">
          {deciders.length === 0 && <li class="muted">nadie más</li>}
          {deciders.map((item) => (
            <li key={item.id}>{item.login} <button type="button" class="button button-small"
              aria-label={`Quitar a ${item.login}`}
              onClick={() => setDeciders(deciders.filter((other) => other.id !== item.id))}>Quitar</button></li>
          ))}
        </ul>
        <SubjectSelect label="Añadir a quien decide" name="policy-decider" empty="Elige…" kind="person"
          enabledOnly value={adding} onChange={(id) => void add(id)} />
      </div>
      {failure && <div class="alert alert-error span-all" role="alert">{failure}</div>}
      <div class="span-all"><button type="submit" class="button button-primary">Guardar</button></div>
    </form>
  );
}
