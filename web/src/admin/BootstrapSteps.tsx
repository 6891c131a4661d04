// The bootstrap flow (spec 1 §4 "Clusters"): download the manifest, apply it, print the JSON with
// the command in the manifest's header, paste it here.
import { useState } from "preact/hooks";
import { getText, post, type Cluster } from "../api";
import { message, useLoad } from "../ui/load";
import { SecretValue } from "../ui/secret";
import { toast } from "../ui/toasts";

/** The commands written in the manifest's header comment ("#      <command>"). */
function commandsOf(manifest: string): string[] {
  return manifest.split("\n").map((line) => /^#\s{5,}(\S.*)$/.exec(line)?.[1]).filter((line): line is string => !!line);
}

export function BootstrapSteps({ cluster, onConnected }: { cluster: Cluster; onConnected: () => void }) {
  const manifestPath = `/api/clusters/${encodeURIComponent(cluster.id)}/bootstrap.yaml`;
  const manifest = useLoad(() => getText(manifestPath), [manifestPath]);
  const commands = manifest.data ? commandsOf(manifest.data) : [];
  const [json, setJson] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const connected = cluster.status !== "pending";

  const submit = async (event: Event) => {
    event.preventDefault();
    setFailure(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      setFailure("Eso no es JSON: pega la línea completa que imprime el comando del paso 3.");
      return;
    }
    setBusy(true);
    try {
      await post(`/api/clusters/${encodeURIComponent(cluster.id)}/tokens`, parsed);
      setJson("");
      toast(`Tokens de ${cluster.id} guardados; primera reconciliación en marcha.`);
      onConnected();
    } catch (error) {
      setFailure(message(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="bootstrap-title">
      <details open={!connected}>
      <summary><h2 id="bootstrap-title">{connected ? "Volver a conectar (cambiar tokens)" : "Conectar el cluster"}</h2></summary>
      {!connected && <p class="alert alert-warning">El cluster todavía no tiene tokens: el proxy responde 503 hasta que pegues el JSON.</p>}
      <ol class="steps">
        <li>
          <h3>Descarga el manifiesto</h3>
          <a class="button" href={manifestPath} download="bootstrap.yaml">Descargar bootstrap.yaml</a>
          <p class="muted small">Crea el namespace <code>klave-system</code>, las cuentas de servicio del proxy y del reconciliador y sus roles mínimos.</p>
        </li>
        <li>
          <h3>Aplícalo con un kubeconfig de cluster-admin</h3>
          {commands[0] ? <SecretValue label="Comando de aplicación" value={commands[0]} /> : <code>kubectl apply -f bootstrap.yaml</code>}
        </li>
        <li>
          <h3>Imprime el JSON de arranque</h3>
          {manifest.error && <p class="alert alert-error" role="alert">{manifest.error.message}</p>}
          {commands[1] && <SecretValue label="Comando del JSON" value={commands[1]} multiline rows={4} />}
        </li>
        <li>
          <h3>Pega el JSON</h3>
          <form onSubmit={submit} class="stack" onInvalidCapture={() => setFailure(null)}>
            <label class="field">
              <span>JSON de arranque (<code>server</code>, <code>ca</code>, <code>proxyToken</code>, <code>reconcilerToken</code>)</span>
              <textarea name="bootstrap" rows={5} required value={json} spellcheck={false}
                aria-invalid={failure ? "true" : undefined} aria-describedby={failure ? "bootstrap-error" : undefined}
                onInput={(event) => setJson(event.currentTarget.value)} />
            </label>
            {failure && <div class="alert alert-error" role="alert" id="bootstrap-error" data-testid="bootstrap-error">{failure}</div>}
            <div>
              <button type="submit" class="button button-primary" disabled={busy}>{busy ? "Comprobando con el cluster…" : "Guardar y conectar"}</button>
            </div>
          </form>
        </li>
      </ol>
      </details>
    </section>
  );
}
