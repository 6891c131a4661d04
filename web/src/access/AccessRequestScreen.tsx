// One access request's page (issue 41), for whoever may see it: its decider reads who asks, what,
// why, and beside it what the requester holds, asked and did on that cluster — then approves or
// denies with an optional comment (both confirmed alike); its requester follows it, and cancels or
// ends it. Agents' access requests (spec 3 "request_access") read the same way.
import { useState } from "preact/hooks";
import { ApiError, get, post, type AccessDetail, type AccessRequest } from "../api";
import { TIER_NAMES, when } from "../format";
import { confirmAction } from "../ui/confirm";
import { message, useLoad } from "../ui/load";
import { ErrorBox, Loads } from "../ui/states";
import { toast } from "../ui/toasts";
import { refreshWaiting } from "../ui/waiting";
import { capitalized, outcome, requesterAfterA, requesterOf, roleText, scopeText } from "../agents/requestText";
import { askedText, standing } from "./accessText";
import { durationText } from "./AskAccessForm";

const STATE_CLASS: Record<string, string> = {
  pending: "alert alert-warning", approved: "alert alert-ok", denied: "alert alert-error",
  expired: "alert alert-neutral", cancelled: "alert alert-neutral",
};

function Context({ detail }: { detail: AccessDetail }) {
  const context = detail.context;
  if (!context) {
    return null;
  }
  const who = detail.request.subject.login;
  return (
    <section class="card" aria-labelledby="request-context" data-testid="request-context">
      <h2 id="request-context">Lo que {who} tiene y ha hecho en {detail.request.cluster}</h2>
      <dl class="context-facts">
        <dt>Permisos en vigor</dt>
        <dd data-testid="context-grants">{context.grants.length === 0 ? "ninguno" : context.grants.map((grant) => (
          `«${TIER_NAMES[grant.tier] ?? grant.tier}» sobre ${scopeText(grant.scope)}${grant.expires_at
            ? ` hasta el ${when(grant.expires_at)}` : ""}`)).join("; ")}</dd>
        <dt>Actividad ({context.activity.days} días)</dt>
        <dd data-testid="context-activity">{context.activity.requests === 0 ? "ninguna petición"
          : `${context.activity.requests} peticiones, ${context.activity.refused} rechazadas`}</dd>
        <dt>Solicitudes recientes</dt>
        <dd data-testid="context-recent">{context.recent.length === 0 ? "ninguna" : (
          <ul class="plain">
            {context.recent.map((other) => <li key={other.id}>{askedText(other)} <span class="muted small">·
              {" "}{standing(other)}</span></li>)}
          </ul>)}</dd>
      </dl>
    </section>
  );
}

function Decision({ request, onChanged }: { request: AccessRequest; onChanged: (request: AccessRequest) => void }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const decide = async (action: "approve" | "deny") => {
    const approving = action === "approve";
    const second = approving && request.approvals_needed === 2 && !request.first_approval;
    const answer = await confirmAction({
      title: approving ? "Aprobar la solicitud" : "Denegar la solicitud",
      body: approving
        ? <p>{second ? "Es la primera de dos aprobaciones: el acceso empieza con la segunda, de otra persona."
          : `Se concede ${askedText(request)}, desde ahora; termina solo.`}</p>
        : <p>No se concede {askedText(request)}. La negativa llegará {requesterAfterA(request.subject,
          request.origin)}.</p>,
      confirmLabel: approving ? "Aprobar" : "Denegar", danger: !approving,
      reasonLabel: "Comentario (opcional)",
    });
    if (!answer) {
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const decided = await post<AccessRequest>(`/api/access/requests/${encodeURIComponent(request.id)}/${action}`,
        answer.reason.trim() ? { comment: answer.reason.trim() } : {});
      toast(approving ? (decided.status === "pending" ? "Primera aprobación registrada." : "Solicitud aprobada.")
        : "Solicitud denegada.");
      refreshWaiting();
      onChanged(decided);
    } catch (error) {
      setFailure(message(error));
      if (error instanceof ApiError && error.status === 409) {
        const now = await get<AccessDetail>(`/api/access/requests/${encodeURIComponent(request.id)}`)
          .catch(() => null);
        if (now) onChanged(now.request);
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

function OwnActions({ request, onChanged }: { request: AccessRequest; onChanged: (request: AccessRequest) => void }) {
  const act = async (action: "cancel" | "end") => {
    const ending = action === "end";
    if (!(await confirmAction({
      title: ending ? "Terminar el acceso ahora" : "Retirar la solicitud",
      body: <p>{ending ? "Lo que tengas abierto con este acceso se corta." : "Nadie tendrá que decidirla."}</p>,
      confirmLabel: ending ? "Terminar ahora" : "Retirar", danger: ending,
    }))) {
      return;
    }
    try {
      onChanged(await post<AccessRequest>(`/api/access/requests/${encodeURIComponent(request.id)}/${action}`));
      toast(ending ? "Acceso terminado." : "Solicitud retirada.");
    } catch (error) {
      toast(message(error));
    }
  };
  return (
    <div class="actions">
      {request.status === "pending" && <button type="button" class="button" onClick={() => act("cancel")}>
        Retirar la solicitud</button>}
      {request.access === "active" && <button type="button" class="button button-danger" onClick={() => act("end")}>
        Terminar el acceso ahora</button>}
    </div>
  );
}

function View({ detail, onChanged }: { detail: AccessDetail; onChanged: (request: AccessRequest) => void }) {
  const request = detail.request;
  const agent = request.origin === "agent";
  return (
    <>
      {/* A login is never capitalized ("eva pide…"); "El bot…" is. */}
      <p class="lead" data-testid="request-headline">{agent ? capitalized(`${requesterOf(request)} pide ${
        askedText(request)}`) : `${requesterOf(request)} ${request.origin === "eligible" ? "activa" : "pide"} ${
        askedText(request)}`}.</p>
      <div class={STATE_CLASS[request.status] ?? "alert"} data-testid="request-state" role="status">
        <p>{agent ? outcome(request) : standing(request)}</p>
        {request.comment && <p data-testid="request-comment">Comentario: «{request.comment}»</p>}
        {request.first_approval && request.status === "pending" && <p data-testid="first-approval">
          Primera aprobación: {request.first_approval.by}, el {when(request.first_approval.at)}{
            request.first_approval.comment ? ` («${request.first_approval.comment}»)` : ""}.</p>}
      </div>
      <section class="card" aria-labelledby="request-facts">
        <h2 id="request-facts">Solicitud</h2>
        <dl class="facts">
          <dt>Quién la pide</dt>
          <dd data-testid="request-subject">{request.subject.login} <span class="muted">
            ({request.subject.kind === "bot" ? "bot" : agent ? "agente de una persona" : "persona"})</span></dd>
          <dt>Rol</dt><dd>{roleText(request.role)}</dd>
          <dt>Ámbito</dt><dd>{scopeText(request.scope)}</dd>
          <dt>Cluster</dt><dd>{request.cluster}</dd>
          <dt>Duración</dt><dd>{durationText(request.minutes)}</dd>
          <dt>Motivo</dt><dd data-testid="access-reason" class="wrap">{request.reason}</dd>
          {request.approvals_needed === 2 && <><dt>Aprobaciones</dt><dd>dos, de personas distintas</dd></>}
          <dt>Pedida</dt><dd>{when(request.created_at)}</dd>
          <dt>Caduca</dt><dd>{when(request.expires_at)}</dd>
        </dl>
      </section>
      <Context detail={detail} />
      {detail.decidable && <Decision request={request} onChanged={onChanged} />}
      {detail.own && <OwnActions request={request} onChanged={onChanged} />}
    </>
  );
}

export function AccessRequestScreen({ id }: { id: string }) {
  const loaded = useLoad(() => get<AccessDetail>(`/api/access/requests/${encodeURIComponent(id)}`), [id]);
  const [changed, setChanged] = useState<AccessRequest | null>(null);
  const detail = loaded.data && changed?.id === id ? { ...loaded.data, request: changed } : loaded.data;
  return (
    <>
      <p class="breadcrumb">{detail?.own ? <a href="/mi-cuenta">Mi cuenta</a> : <a href="/agentes">Agentes</a>}
        {" "}/ solicitud</p>
      <h1 tabIndex={-1}>Solicitud de acceso</h1>
      {loaded.error?.status === 404 ? (
        <ErrorBox text="No hay ninguna solicitud con este enlace que puedas ver tú." />
      ) : (
        <Loads loaded={{ ...loaded, data: detail }}>
          {(shown) => <View detail={shown} onChanged={setChanged} />}
        </Loads>
      )}
    </>
  );
}
