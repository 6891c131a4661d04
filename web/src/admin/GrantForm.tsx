import { useState } from "preact/hooks";
import { get, post, type Catalogue, type Cluster, type Namespace } from "../api";
import { rfc3339, TIER_NAMES } from "../format";
import { message, useLoad } from "../ui/load";
import { SubjectSelect } from "../ui/SubjectSelect";

const SAFE_LEVELS = new Set(["baseline", "restricted"]);

export function GrantForm({ clusters, onCreated }: {
  clusters: Cluster[];
  onCreated: () => void;
}) {
  const catalogue = useLoad(() => get<Catalogue>("/api/tiers"), []);
  const [subject, setSubject] = useState("");
  const [cluster, setCluster] = useState("");
  const [tier, setTier] = useState("view");
  const [scope, setScope] = useState("");
  const [expires, setExpires] = useState("");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const namespaces = useLoad(() => cluster ? get<Namespace[]>(`/api/clusters/${encodeURIComponent(cluster)}/namespaces`)
    : Promise.resolve([] as Namespace[]), [cluster]);

  const tiers = catalogue.data?.tiers ?? [];
  const chosen = tiers.find((item) => item.name === tier);
  const protectedNamespaces = new Set(catalogue.data?.protected_namespaces ?? []);
  const podSecurity = catalogue.data?.pod_security_required ?? false;
  const ready = clusters.filter((item) => item.status !== "pending");

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const body: Record<string, string> = { subject_id: subject, cluster_id: cluster, tier, scope };
      if (expires) body.expires_at = rfc3339(expires);
      if (note) body.note = note;
      await post("/api/grants", body);
      setNote("");
      setExpires("");
      onCreated();
    } catch (error) {
      setFailure(message(error, { expires_at: "Caduca", subject_id: "Usuario", cluster_id: "Cluster", tier: "Nivel",
        scope: "Ámbito", note: "Nota" }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="grant-title">
      <h2 id="grant-title">Conceder un permiso</h2>
      <form onSubmit={submit} class="form-grid" onInvalidCapture={() => setFailure(null)}>
        <SubjectSelect label="Usuario" name="subject" empty="Elige…" required enabledOnly value={subject}
          describe={(item) => item.kind === "bot" ? `${item.login} (bot)` : item.login}
          onChange={setSubject} />
        <label class="field">
          <span>Cluster</span>
          <select name="cluster" required value={cluster} onChange={(event) => {
            setCluster(event.currentTarget.value);
            setScope("");
          }}>
            <option value="">Elige…</option>
            {ready.map((item) => <option key={item.id} value={item.id}>{item.id} — {item.name}</option>)}
          </select>
        </label>
        <label class="field">
          <span>Nivel</span>
          <select name="tier" required value={tier} onChange={(event) => {
            setTier(event.currentTarget.value);
            if (!tiers.find((item) => item.name === event.currentTarget.value)?.namespace_scope) {
              setScope("*");
            }
          }}>
            {tiers.map((item) => <option key={item.name} value={item.name}>{TIER_NAMES[item.name] ?? item.name}</option>)}
          </select>
        </label>
        <label class="field">
          <span>Ámbito</span>
          <select name="scope" required value={scope} onChange={(event) => setScope(event.currentTarget.value)} disabled={!cluster}>
            <option value="">{cluster ? (namespaces.loading ? "Cargando namespaces…" : "Elige…") : "Elige antes el cluster"}</option>
            <option value="*">* (todo el cluster)</option>
            {chosen?.namespace_scope !== false && (namespaces.data ?? []).map((namespace) => {
              const isProtected = protectedNamespaces.has(namespace.name);
              const unsafe = podSecurity && chosen?.writes && !SAFE_LEVELS.has(namespace.psa_enforce ?? "");
              return (
                <option key={namespace.name} value={namespace.name} disabled={isProtected || unsafe}>
                  {namespace.name} · psa_enforce: {namespace.psa_enforce ?? "ninguno"}
                  {isProtected ? " · protegido" : unsafe ? " · sin pod security suficiente" : ""}
                </option>
              );
            })}
          </select>
        </label>
        <label class="field">
          <span>Caduca (opcional)</span>
          <input type="datetime-local" name="expires" value={expires} onInput={(event) => setExpires(event.currentTarget.value)} />
        </label>
        <label class="field">
          <span>Nota</span>
          <input name="note" value={note} maxLength={500} placeholder="p. ej. ticket OPS-123"
            onInput={(event) => setNote(event.currentTarget.value)} />
        </label>
        <div class="span-all muted small">
          {chosen && <p data-testid="tier-description"><strong>{TIER_NAMES[chosen.name] ?? chosen.name}</strong>
            {" "}({chosen.name}): {chosen.description}.</p>}
          {catalogue.data && (
            <p>Namespaces protegidos (no se conceden por namespace): {[...protectedNamespaces].map((name, index) => (
              <span key={name}>{index > 0 && ", "}<code>{name}</code></span>))}.
              {podSecurity && " Los niveles que escriben solo se conceden en namespaces con psa_enforce baseline o restricted."}</p>
          )}
          {cluster && namespaces.error && <p class="alert alert-error" role="alert">{namespaces.error.message}</p>}
          {ready.length === 0 && clusters.length > 0 && <p>Ningún cluster tiene tokens todavía: conéctalo antes de conceder permisos.</p>}
        </div>
        {failure && <div class="alert alert-error span-all" role="alert">{failure}</div>}
        <div class="span-all">
          <button type="submit" class="button button-primary" disabled={busy}>{busy ? "Concediendo…" : "Conceder permiso"}</button>
        </div>
      </form>
    </section>
  );
}
