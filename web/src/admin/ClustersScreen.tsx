import { useState } from "preact/hooks";
import { get, post, type Cluster } from "../api";
import { when } from "../format";
import { navigate } from "../router";
import { message, useLoad } from "../ui/load";
import { CardTable } from "../ui/CardTable";
import { Loads } from "../ui/states";
import { toast } from "../ui/toasts";
import { ClusterStatus } from "./ClusterStatus";

export function ClustersScreen() {
  const clusters = useLoad(() => get<Cluster[]>("/api/clusters"), []);
  const [id, setId] = useState("");
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const register = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const created = await post<Cluster>("/api/clusters", { id, name });
      toast(`Cluster ${created.id} registrado. Sigue los pasos para conectarlo.`);
      navigate(`/admin/clusters/${encodeURIComponent(created.id)}`);
    } catch (error) {
      setFailure(message(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Clusters</h1>
      <p class="lead">Clusters de Kubernetes a los que Klave da acceso.</p>
      <section class="card" aria-labelledby="clusters-title">
        <h2 id="clusters-title">Registrados</h2>
        <Loads loaded={clusters} empty="Todavía no hay ningún cluster. Registra el primero abajo.">
          {(list) => (
            <CardTable label="Clusters registrados">
                <thead>
                  <tr>
                    <th scope="col">Cluster</th>
                    <th scope="col">Estado</th>
                    <th scope="col">Última reconciliación</th>
                    <th scope="col">Último error</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((cluster) => (
                    <tr key={cluster.id} data-testid={`cluster-${cluster.id}`}>
                      <td><a href={`/admin/clusters/${encodeURIComponent(cluster.id)}`}><strong>{cluster.id}</strong></a>
                        <div class="muted small">{cluster.name}</div></td>
                      <td><ClusterStatus status={cluster.status} />{cluster.aggregated_discovery === false && (
                        <span class="pill pill-off" title="El cluster no sirve el descubrimiento agregado: las herramientas de agentes no funcionan en él"
                          data-testid="no-agent-tools"> sin herramientas de agentes</span>)}</td>
                      <td>{when(cluster.last_reconciliation)}</td>
                      <td class="error-text">{cluster.last_error ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
            </CardTable>
          )}
        </Loads>
      </section>
      <section class="card" aria-labelledby="register-title">
        <h2 id="register-title">Registrar un cluster</h2>
        <form onSubmit={register} class="form-grid" onInvalidCapture={() => setFailure(null)}>
          <label class="field">
            <span>Identificador</span>
            <input name="id" required value={id} spellcheck={false} autoComplete="off" placeholder="prod-1"
              aria-describedby="cluster-id-help" onInput={(event) => setId(event.currentTarget.value)} />
          </label>
          <label class="field">
            <span>Nombre</span>
            <input name="name" required value={name} placeholder="Producción"
              onInput={(event) => setName(event.currentTarget.value)} />
          </label>
          <p id="cluster-id-help" class="muted small span-all">El identificador es una etiqueta DNS (minúsculas, cifras y guiones) y forma la dirección del proxy: <code>/clusters/&lt;id&gt;</code>.</p>
          {failure && <div class="alert alert-error span-all" role="alert">{failure}</div>}
          <div class="span-all">
            <button type="submit" class="button button-primary" disabled={busy}>{busy ? "Registrando…" : "Registrar"}</button>
          </div>
        </form>
      </section>
    </>
  );
}
