// "Acceso cuando lo necesitas" on /mi-cuenta (issue 41): the person's eligible grants, activated
// here; their requests with where each stands, cancelled while they wait, ended early while they
// run; and the form to ask for more.
import { useState } from "preact/hooks";
import { get, post, type AccessRequest, type EligibleGrant, type OwnAccess as Own } from "../api";
import { TIER_NAMES } from "../format";
import { confirmAction } from "../ui/confirm";
import { message, useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { toast } from "../ui/toasts";
import { askedText, standing } from "./accessText";
import { AskAccessForm, durationText } from "./AskAccessForm";

const STATE_PILL: Record<string, string> = {
  pending: "pill pill-warning", approved: "pill pill-ok", denied: "pill pill-bad", cancelled: "pill pill-off",
  expired: "pill pill-off",
};

const STATE_WORD: Record<string, string> = {
  pending: "pendiente", approved: "aprobada", denied: "denegada", cancelled: "retirada", expired: "caducada",
};

function Activate({ grant, onDone }: { grant: EligibleGrant; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [minutes, setMinutes] = useState(Math.min(60, grant.max_minutes));
  const [reason, setReason] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const durations = [15, 30, 60, 120, 240, 480, 720, 1440].filter((value) => value <= grant.max_minutes);
  if (!durations.includes(grant.max_minutes)) durations.push(grant.max_minutes);
  if (!open) {
    return <button type="button" class="button button-small button-primary" onClick={() => setOpen(true)}
      aria-label={`Activar «${TIER_NAMES[grant.tier] ?? grant.tier}» en ${grant.cluster_id}`}>Activar</button>;
  }
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const activated = await post<AccessRequest>(`/api/access/eligible/${encodeURIComponent(grant.id)}/activate`,
        { minutes, reason });
      toast(activated.status === "approved" ? "Acceso activado." : "Activación pedida: espera una aprobación.");
      setOpen(false);
      onDone();
    } catch (error) {
      setFailure(message(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="form-grid" onSubmit={submit} data-testid={`activate-${grant.id}`}>
      <label class="field">
        <span>Durante</span>
        <select name="minutes" value={String(minutes)} onChange={(event) => setMinutes(Number(event.currentTarget.value))}>
          {durations.map((value) => <option key={value} value={value}>{durationText(value)}</option>)}
        </select>
      </label>
      <label class="field span-all">
        <span>Motivo</span>
        <textarea name="reason" rows={2} required maxLength={500} value={reason}
          onInput={(event) => setReason(event.currentTarget.value)} />
      </label>
      {failure && <div class="alert alert-error span-all" role="alert">{failure}</div>}
      <div class="span-all actions">
        <button type="submit" class="button button-primary" disabled={busy}>
          {grant.needs_approval ? "Pedir la activación" : "Activar ahora"}</button>
        <button type="button" class="button" onClick={() => setOpen(false)}>Cancelar</button>
      </div>
    </form>
  );
}

function Eligible({ list, onChanged }: { list: EligibleGrant[]; onChanged: () => void }) {
  if (list.length === 0) {
    return null;
  }
  return (
    <>
      <h3>Puedes activar</h3>
      <ul class="plain stack-small" data-testid="own-eligible">
        {list.map((grant) => (
          <li key={grant.id} data-testid={`eligible-${grant.id}`}>
            <strong>«{TIER_NAMES[grant.tier] ?? grant.tier}»</strong> sobre {grant.scope === "*" ? "todo el cluster"
              : `el namespace ${grant.scope}`} de {grant.cluster_id}
            <span class="muted small"> · hasta {durationText(grant.max_minutes)} · {grant.needs_approval
              ? "con aprobación" : "sin aprobación"}</span>
            <div><Activate grant={grant} onDone={onChanged} /></div>
          </li>
        ))}
      </ul>
    </>
  );
}

function Requests({ list, onChanged }: { list: AccessRequest[]; onChanged: () => void }) {
  const act = async (request: AccessRequest, action: "cancel" | "end") => {
    const ending = action === "end";
    if (!(await confirmAction({
      title: ending ? "Terminar el acceso ahora" : "Retirar la solicitud",
      body: <p>{ending ? `Dejarás de tener ${askedText(request)}: lo que tengas abierto con él se corta.`
        : `Nadie tendrá que decidir ${askedText(request)}.`}</p>,
      confirmLabel: ending ? "Terminar ahora" : "Retirar", danger: ending,
    }))) {
      return;
    }
    try {
      await post(`/api/access/requests/${encodeURIComponent(request.id)}/${action}`);
      toast(ending ? "Acceso terminado." : "Solicitud retirada.");
    } catch (error) {
      toast(message(error));
    }
    onChanged();
  };
  if (list.length === 0) {
    return <p class="state state-empty">No has pedido acceso todavía.</p>;
  }
  return (
    <ul class="plain stack-small" data-testid="own-access-requests">
      {list.map((request) => (
        <li key={request.id} data-testid={`own-access-${request.id}`}>
          <span class={STATE_PILL[request.status] ?? "pill"}>{request.access === "active" ? "activo"
            : STATE_WORD[request.status] ?? request.status}</span>{" "}
          <a href={`/acceso/solicitudes/${encodeURIComponent(request.id)}`}>{askedText(request)}</a>
          <div class="muted small">{standing(request)}</div>
          {request.status === "pending" && <button type="button" class="button button-small"
            onClick={() => act(request, "cancel")}>Retirar</button>}
          {request.access === "active" && <button type="button" class="button button-small button-danger"
            onClick={() => act(request, "end")}>Terminar ahora</button>}
        </li>
      ))}
    </ul>
  );
}

export function OwnAccess() {
  const [version, setVersion] = useState(0);
  const [asking, setAsking] = useState(false);
  const own = useLoad(() => get<Own>("/api/access/requests"), [version]);
  const changed = () => setVersion((value) => value + 1);
  return (
    <section class="card" aria-labelledby="own-access-title" data-testid="own-access">
      <h2 id="own-access-title" tabIndex={-1}>Acceso cuando lo necesitas</h2>
      <p class="muted">Pide acceso a un cluster durante un rato, con un motivo: un administrador (o quien el cluster
        nombre) decide, y el acceso termina solo.</p>
      {asking
        ? <AskAccessForm onAsked={() => { setAsking(false); changed(); }} />
        : <button type="button" class="button button-primary" onClick={() => setAsking(true)}
          data-testid="ask-access-open">Pedir acceso</button>}
      <Loads loaded={own}>
        {(data) => (
          <>
            <Eligible list={data.eligible} onChanged={changed} />
            <h3>Mis solicitudes</h3>
            <Requests list={data.requests} onChanged={changed} />
          </>
        )}
      </Loads>
    </section>
  );
}
