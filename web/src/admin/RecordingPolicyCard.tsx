// A cluster's recording policy (issue 42), on its page: off, on (a failed recording lets the
// session go on, marked) or required (no recording, no session); and whether what is typed (stdin)
// is recorded too (issue 51), off unless asked for.
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

interface PolicyView { policy: string; stdin: boolean }

function PolicyForm({ cluster, initial }: { cluster: string; initial: PolicyView }) {
  const [policy, setPolicy] = useState(initial.policy);
  const [stdin, setStdin] = useState(initial.stdin);
  const [failure, setFailure] = useState<string | null>(null);
  const save = async (event: Event) => {
    event.preventDefault();
    setFailure(null);
    const response = await fetch(`/api/clusters/${encodeURIComponent(cluster)}/recording`, {
      method: "PUT", credentials: "same-origin", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ policy, stdin }),
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
      <label class="check">
        <input type="checkbox" name="recording-stdin" checked={stdin} disabled={policy === "off"}
          onChange={(event) => setStdin(event.currentTarget.checked)} /> Grabar también lo que se teclea (stdin)
      </label>
      <p class="muted small">Lo que la terminal muestra ya se graba; lo que se teclea sin eco (una contraseña en un
        prompt) solo si lo marcas.</p>
      {failure && <div class="alert alert-error" role="alert">{failure}</div>}
      <div><button type="submit" class="button button-primary">Guardar</button></div>
    </form>
  );
}

export function RecordingPolicyCard({ cluster }: { cluster: string }) {
  const loaded = useLoad(() => get<PolicyView>(`/api/clusters/${encodeURIComponent(cluster)}/recording`),
    [cluster]);
  return (
    <section class="card" aria-labelledby="recording-title" data-testid="recording-policy">
      <h2 id="recording-title">Grabación de sesiones</h2>
      <Loads loaded={loaded}>{(view) => <PolicyForm cluster={cluster} initial={view} />}</Loads>
    </section>
  );
}
