// A cluster's recording policy (issue 42), on its page: off, on (a failed recording lets the
// session go on, marked) or required (no recording, no session).
import { useState } from "preact/hooks";
import { get } from "../api";
import { message, useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { toast } from "../ui/toasts";

const POLICIES: { code: string; label: string; help: string }[] = [
  { code: "on", label: "Grabar", help: "Se graban exec y attach; si la grabación falla, la sesión sigue y queda marcada." },
  { code: "required", label: "Grabar siempre (obligatoria)",
    help: "Sin grabación no hay sesión: se rechaza la que no se puede grabar y se corta la que deja de grabarse." },
  { code: "off", label: "Sin grabar", help: "Las sesiones se auditan, pero no se graban." },
];

function PolicyForm({ cluster, initial }: { cluster: string; initial: string }) {
  const [policy, setPolicy] = useState(initial);
  const [failure, setFailure] = useState<string | null>(null);
  const save = async (event: Event) => {
    event.preventDefault();
    setFailure(null);
    const response = await fetch(`/api/clusters/${encodeURIComponent(cluster)}/recording`, {
      method: "PUT", credentials: "same-origin", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ policy }),
    });
    if (response.ok) {
      toast("Guardada la grabación de sesiones de este cluster.");
    } else {
      const body = await response.json().catch(() => ({})) as { error?: string };
      setFailure(message(new Error(body.error ?? `error ${response.status}`)));
    }
  };
  return (
    <form onSubmit={save} class="stack-small">
      <fieldset class="field">
        <legend>Sesiones de exec y attach</legend>
        {POLICIES.map((item) => (
          <label class="check" key={item.code}>
            <input type="radio" name="recording-policy" value={item.code} checked={policy === item.code}
              onChange={() => setPolicy(item.code)} /> {item.label}
          </label>
        ))}
      </fieldset>
      <p class="muted small">{POLICIES.find((item) => item.code === policy)?.help}</p>
      {failure && <div class="alert alert-error" role="alert">{failure}</div>}
      <div><button type="submit" class="button button-primary">Guardar</button></div>
    </form>
  );
}

export function RecordingPolicyCard({ cluster }: { cluster: string }) {
  const loaded = useLoad(() => get<{ policy: string }>(`/api/clusters/${encodeURIComponent(cluster)}/recording`),
    [cluster]);
  return (
    <section class="card" aria-labelledby="recording-title" data-testid="recording-policy">
      <h2 id="recording-title">Grabación de sesiones</h2>
      <Loads loaded={loaded}>{(view) => <PolicyForm cluster={cluster} initial={view.policy} />}</Loads>
    </section>
  );
}
