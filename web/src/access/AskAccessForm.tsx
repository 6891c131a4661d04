// A person asks for access for themselves (issue 41): a tier on a cluster and scope, for a while,
// with a reason. On /mi-cuenta and on /acceso/pedir (the page Klave's refusals name), where the
// address may preselect the cluster (?cluster=prod-1).
import { useState } from "preact/hooks";
import { get, post, type AccessOptions, type AccessRequest } from "../api";
import { TIER_NAMES } from "../format";
import { message, useLoad } from "../ui/load";
import { toast } from "../ui/toasts";

/** Durations offered, in minutes; those above the cluster's maximum are left out. */
const DURATIONS = [15, 30, 60, 120, 240, 480, 720, 1440];

export function durationText(minutes: number): string {
  if (minutes % 60 !== 0) return `${minutes} minutos`;
  const hours = minutes / 60;
  return hours === 1 ? "1 hora" : `${hours} horas`;
}

export function AskAccessForm({ cluster: initial = "", onAsked }: {
  cluster?: string;
  onAsked: (request: AccessRequest) => void;
}) {
  const options = useLoad(() => get<AccessOptions>("/api/access/options"), []);
  const [cluster, setCluster] = useState(initial);
  const [tier, setTier] = useState("view");
  const [whole, setWhole] = useState(false);
  const [namespace, setNamespace] = useState("");
  const [minutes, setMinutes] = useState(60);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const chosen = options.data?.clusters.find((item) => item.id === cluster);
  const most = chosen?.max_minutes ?? 480;
  const durations = DURATIONS.filter((value) => value <= most);
  const broad = whole || tier === "admin";

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const asked = await post<AccessRequest>("/api/access/requests", {
        cluster_id: cluster, tier, scope: whole ? "*" : namespace.trim(), minutes: Math.min(minutes, most),
        reason,
      });
      toast("Solicitud enviada: te avisaremos aquí cuando alguien decida.");
      setReason("");
      onAsked(asked);
    } catch (error) {
      setFailure(message(error));
    } finally {
      setBusy(false);
    }
  };

  if (options.error) {
    return <div class="alert alert-error" role="alert">{options.error.message}</div>;
  }
  return (
    <form onSubmit={submit} class="form-grid" data-testid="ask-access" onInvalidCapture={() => setFailure(null)}>
      <label class="field">
        <span>Cluster</span>
        <select name="cluster" required value={cluster} onChange={(event) => setCluster(event.currentTarget.value)}>
          <option value="">Elige…</option>
          {(options.data?.clusters ?? []).map((item) => (
            <option key={item.id} value={item.id}>{item.id} — {item.name}</option>))}
        </select>
      </label>
      <label class="field">
        <span>Nivel</span>
        <select name="tier" required value={tier} onChange={(event) => setTier(event.currentTarget.value)}>
          {(options.data?.tiers ?? []).map((item) => (
            <option key={item} value={item}>{TIER_NAMES[item] ?? item}</option>))}
        </select>
      </label>
      <fieldset class="field">
        <legend>Ámbito</legend>
        <label class="check"><input type="checkbox" name="whole" checked={whole}
          onChange={(event) => setWhole(event.currentTarget.checked)} /> Todo el cluster</label>
        {!whole && <input name="namespace" required aria-label="Namespace" placeholder="namespace, p. ej. team-a"
          value={namespace} maxLength={63} onInput={(event) => setNamespace(event.currentTarget.value)} />}
      </fieldset>
      <label class="field">
        <span>Durante</span>
        <select name="minutes" value={String(Math.min(minutes, most))}
          onChange={(event) => setMinutes(Number(event.currentTarget.value))}>
          {durations.map((value) => <option key={value} value={value}>{durationText(value)}</option>)}
        </select>
      </label>
      <label class="field span-all">
        <span>Motivo</span>
        <textarea name="reason" required rows={2} maxLength={options.data?.reason_max ?? 500} value={reason}
          placeholder="p. ej. incidente INC-4711: revisar los pods del ingress"
          onInput={(event) => setReason(event.currentTarget.value)} />
      </label>
      <p class="span-all muted small" data-testid="ask-access-who">
        Deciden los administradores{chosen ? " y las personas que el cluster nombre" : ""}; nunca tú.
        {chosen?.two_approvals && broad ? " Este acceso es amplio: en este cluster necesita dos aprobaciones." : ""}
        {" "}El acceso empieza al aprobarse y termina solo{chosen ? `; como mucho ${durationText(most)}` : ""}.
      </p>
      {failure && <div class="alert alert-error span-all" role="alert">{failure}</div>}
      <div class="span-all">
        <button type="submit" class="button button-primary" disabled={busy}>{busy ? "Enviando…" : "Pedir acceso"}</button>
      </div>
    </form>
  );
}

/** /acceso/pedir: the form alone, for the links of refusals and of the README. */
export function AskAccessScreen({ cluster }: { cluster: string }) {
  const [asked, setAsked] = useState<AccessRequest | null>(null);
  return (
    <>
      <p class="breadcrumb"><a href="/mi-cuenta">Mi cuenta</a> / pedir acceso</p>
      <h1 tabIndex={-1}>Pedir acceso</h1>
      {asked
        ? <div class="alert alert-ok" role="status" data-testid="asked">Solicitud enviada. Síguela en <a
          href={`/acceso/solicitudes/${encodeURIComponent(asked.id)}`}>su página</a> o en <a href="/mi-cuenta">Mi
          cuenta</a>.</div>
        : <section class="card"><AskAccessForm cluster={cluster} onAsked={setAsked} /></section>}
    </>
  );
}
