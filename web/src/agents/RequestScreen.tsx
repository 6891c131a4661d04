// The page an agent gives a person (spec 3 §2: {base_url}/agents/requests/<id>): who asks, what,
// until when; a write's preview or an access request's role — read first — then Approve / Deny while
// it is pending (both ask first, alike), then what became of it, with who decided and when.
import { useState } from "preact/hooks";
import { ApiError, get, post, type AccessRequest, type AgentRequest, type WriteRequest } from "../api";
import { when } from "../format";
import { confirmAction } from "../ui/confirm";
import { message, useLoad } from "../ui/load";
import { ErrorBox, Loads } from "../ui/states";
import { toast } from "../ui/toasts";
import { refreshWaiting } from "../ui/waiting";
import { capitalized, outcome, requester, requesterAfterA, roleText, scopeText, verbText, whatIsAsked } from "./requestText";
import { WritePreview } from "./WritePreview";

const STATE_CLASS: Record<string, string> = {
  pending: "alert alert-warning",
  approved: "alert alert-ok",
  executed: "alert alert-ok",
  denied: "alert alert-error",
  expired: "alert alert-neutral",
};

function headline(request: AgentRequest): string {
  if (request.kind === "write") {
    return `${requester(request.subject)} quiere ${whatIsAsked(request)}`;
  }
  return `${requester(request.subject)} pide ${whatIsAsked(request)}`;
}

function WriteFacts({ request }: { request: WriteRequest }) {
  return (
    <>
      <dt>Acción</dt><dd>{verbText(request.verb)} <span class="muted">({request.verb})</span></dd>
      <dt>Objeto</dt><dd><code class="wrap">{request.resource}/{request.name}</code></dd>
      <dt>Namespace</dt><dd>{request.namespace ?? "— (del cluster)"}</dd>
      <dt>Cluster</dt><dd>{request.cluster}</dd>
      <dt>Herramienta</dt><dd><code>{request.tool}</code></dd>
    </>
  );
}

function AccessFacts({ request }: { request: AccessRequest }) {
  return (
    <>
      <dt>Rol</dt><dd>{roleText(request.role)}</dd>
      <dt>Ámbito</dt><dd>{scopeText(request.scope)}</dd>
      <dt>Cluster</dt><dd>{request.cluster}</dd>
      <dt>Duración</dt><dd>{request.minutes} minutos</dd>
      <dt>Motivo</dt><dd data-testid="access-reason">{request.reason}</dd>
    </>
  );
}

function Decision({ request, onDecided }: { request: AgentRequest; onDecided: (request: AgentRequest) => void }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const decide = async (action: "approve" | "deny") => {
    // Both decisions ask first, alike (issue 40 item 7): each is final.
    const approving = action === "approve";
    if (!(await confirmAction({
      title: approving ? "Aprobar la solicitud" : "Denegar la solicitud",
      body: approving
        ? <p>Se hará: {whatIsAsked(request)}. {request.kind === "write"
          ? `Se ejecutará cuando ${requester(request.subject)} vuelva a llamar.`
          : "El permiso empieza ahora."}</p>
        : <p>No se hará: {whatIsAsked(request)}. La negativa llegará {requesterAfterA(request.subject)} cuando
          vuelva a preguntar.</p>,
      confirmLabel: approving ? "Aprobar" : "Denegar", danger: !approving,
    }))) {
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const decided = await post<AgentRequest>(`/api/agents/requests/${encodeURIComponent(request.id)}/${action}`);
      toast(action === "approve" ? "Solicitud aprobada." : "Solicitud denegada.");
      refreshWaiting();
      onDecided(decided);
    } catch (error) {
      // 409: someone else decided, or it expired meanwhile; the page shows what it is now.
      setFailure(message(error));
      if (error instanceof ApiError && error.status === 409) {
        onDecided(await get<AgentRequest>(`/api/agents/requests/${encodeURIComponent(request.id)}`).catch(() => request));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {failure && <div class="alert alert-error" role="alert" data-testid="decision-error">{failure}</div>}
      {request.status === "pending" && (
        <div class="actions decision" data-testid="request-actions">
          <button type="button" class="button button-primary" disabled={busy} onClick={() => decide("approve")}>Aprobar</button>
          <button type="button" class="button button-danger" disabled={busy} onClick={() => decide("deny")}>Denegar</button>
        </div>
      )}
    </>
  );
}

function RequestView({ request, onChanged }: { request: AgentRequest; onChanged: (request: AgentRequest) => void }) {
  return (
    <>
      <p class="lead" data-testid="request-headline">{capitalized(headline(request))}.</p>
      <div class={STATE_CLASS[request.status] ?? "alert"} data-testid="request-state" role="status">
        <p>{outcome(request)}</p>
      </div>
      <section class="card" aria-labelledby="request-facts">
        <h2 id="request-facts">Solicitud</h2>
        <dl class="facts">
          <dt>Quién la pide</dt>
          <dd data-testid="request-subject">{request.subject.login} <span class="muted">
            ({request.subject.kind === "bot" ? "bot" : "agente de una persona"})</span></dd>
          {request.kind === "write" ? <WriteFacts request={request} /> : <AccessFacts request={request} />}
          <dt>Pedida</dt><dd>{when(request.created_at)}</dd>
          <dt>Caduca</dt><dd>{when(request.expires_at)}</dd>
        </dl>
      </section>
      {request.kind === "write" && <WritePreview request={request} />}
      {/* The decision after what it decides: the preview is read first (issue 40 item 7). */}
      <Decision request={request} onDecided={onChanged} />
    </>
  );
}

export function RequestScreen({ id }: { id: string }) {
  const loaded = useLoad(() => get<AgentRequest>(`/api/agents/requests/${encodeURIComponent(id)}`), [id]);
  const [decided, setDecided] = useState<AgentRequest | null>(null);
  const request = decided?.id === id ? decided : loaded.data;
  const title = !request ? "Solicitud de un agente"
    : request.kind === "write" ? "Solicitud de escritura" : "Solicitud de acceso";
  return (
    <>
      <p class="breadcrumb"><a href="/agentes">Agentes</a> / solicitud</p>
      <h1 tabIndex={-1}>{title}</h1>
      {loaded.error?.status === 404 ? (
        // The API answers 404 alike for a request that does not exist and one the caller may not decide.
        <ErrorBox text="No hay ninguna solicitud con este enlace que puedas decidir tú." />
      ) : (
        <Loads loaded={{ ...loaded, data: request }}>
          {(shown) => <RequestView request={shown} onChanged={setDecided} />}
        </Loads>
      )}
    </>
  );
}
