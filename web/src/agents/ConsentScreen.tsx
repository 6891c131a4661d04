// The consent page of an agent's login (spec 3 §4 "Agent login", §2 "Agent session"): which client
// asks, where Klave's answer goes (with a warning for anything but this machine, rule 6), which of
// the person's own permissions the agent gets and whether its writes wait for the person. The
// answer is a redirect out of Klave (a loopback address or an app's scheme), followed with a full
// navigation.
import { useState } from "preact/hooks";
import { get, post, type AgentPermission, type ConsentRequest } from "../api";
import { when } from "../format";
import { message, useLoad } from "../ui/load";
import { ErrorBox, Loads } from "../ui/states";
import { capitalized } from "./requestText";
import { permissionText } from "./sessionText";

const GONE = "Esta solicitud de autorización no existe o ha caducado (dura 10 minutos). Vuelve a conectar el agente "
  + "desde su aplicación para empezar otra.";

const key = (permission: AgentPermission) => `${permission.cluster}\u0000${permission.role}\u0000${permission.scope}`;

function ClientFacts({ request }: { request: ConsentRequest }) {
  return (
    <section class="card" aria-labelledby="consent-client">
      <h2 id="consent-client">Quién lo pide</h2>
      <dl class="facts">
        <dt>Cliente</dt><dd data-testid="consent-client-name">{request.client.name ?? "sin nombre"}</dd>
        <dt>Identificador</dt><dd><code class="wrap" data-testid="consent-client-id">{request.client.id}</code></dd>
        {/* What the client says of itself: shown as text, never as a link Klave vouches for. */}
        {request.client.uri && <><dt>Web que declara</dt><dd><code class="wrap">{request.client.uri}</code></dd></>}
        <dt>Esta página caduca</dt><dd>{when(request.expires_at)}</dd>
      </dl>
    </section>
  );
}

function Destination({ request }: { request: ConsentRequest }) {
  return (
    <section class="card" aria-labelledby="consent-destination">
      <h2 id="consent-destination">Adónde va la respuesta</h2>
      <p><code class="wrap" data-testid="consent-redirect">{request.redirect_uri}</code></p>
      {request.redirect_is_loopback ? (
        <p class="muted" data-testid="consent-loopback">Es una dirección de este mismo equipo: la respuesta no sale de él.</p>
      ) : (
        <div class="alert alert-warning" role="note" data-testid="consent-warning">
          <p><strong>Atención: la respuesta sale de este equipo.</strong> Si autorizas, Klave enviará el acceso a
            esta dirección, que no es de este equipo (puede ser otra máquina o una aplicación instalada). Autoriza
            solo si reconoces la dirección como la de tu agente.</p>
        </div>
      )}
    </section>
  );
}

function Decision({ id, request }: { id: string; request: ConsentRequest }) {
  // None chosen to begin with: the person picks what the agent gets, rather than unticking what it should not.
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [writesWait, setWritesWait] = useState(true);
  const [busy, setBusy] = useState<"approve" | "deny" | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const offered = request.permissions;

  const toggle = (permission: AgentPermission, on: boolean) => {
    const next = new Set(chosen);
    if (on) {
      next.add(key(permission));
    } else {
      next.delete(key(permission));
    }
    setChosen(next);
    setFailure(null);
  };

  const answer = async (approve: boolean) => {
    if (approve && chosen.size === 0) {
      setFailure("Elige al menos un permiso para el agente, o deniega el acceso.");
      return;
    }
    setBusy(approve ? "approve" : "deny");
    setFailure(null);
    try {
      const body = approve
        ? { approve: true, permissions: offered.filter((permission) => chosen.has(key(permission))),
          writes_need_approval: writesWait }
        : { approve: false };
      // A session lost meanwhile (401) sends the person to sign in, and back here afterwards.
      const { redirect } = await post<{ redirect: string }>(`/api/agents/authorize/${encodeURIComponent(id)}`,
        body);
      // The answer leaves Klave (the agent's loopback address or its app): a full navigation.
      window.location.assign(redirect);
    } catch (error) {
      setFailure(capitalized(message(error)));
      setBusy(null);
    }
  };

  return (
    <form class="card" aria-labelledby="consent-permissions" onSubmit={(event) => {
      event.preventDefault();
      void answer(true);
    }}>
      <h2 id="consent-permissions">Qué podrá hacer</h2>
      {offered.length === 0 ? (
        <p data-testid="consent-nothing">No tienes ningún permiso en vigor que puedas dar a un agente (los de
          cluster-admin nunca se dan). Solo puedes denegar el acceso; pide permisos a un administrador si los necesitas.</p>
      ) : (
        <fieldset class="choices" data-testid="consent-choices">
          <legend>Elige los permisos del agente, entre los tuyos. Actuará en tu nombre con ellos.</legend>
          {offered.map((permission) => (
            <label class="check" key={key(permission)}>
              <input type="checkbox" name="permission" checked={chosen.has(key(permission))}
                onChange={(event) => toggle(permission, event.currentTarget.checked)} />
              <span>{permissionText(permission)}</span>
            </label>
          ))}
        </fieldset>
      )}
      <div>
        <label class="check">
          <input type="checkbox" name="writes_need_approval" checked={writesWait} aria-describedby="writes-help"
            onChange={(event) => setWritesWait(event.currentTarget.checked)} />
          Las escrituras esperan mi aprobación
        </label>
        <p id="writes-help" class="muted small check-help">Cada cambio que el agente quiera hacer en un cluster te
          esperará en Klave hasta que lo apruebes.</p>
      </div>
      {offered.length > 0 && (
        <p data-testid="consent-duration">Si lo autorizas, el agente tendrá estos permisos hasta
          el {when(request.access_until)} ({request.access_days} días) o hasta que termines su sesión en Mi cuenta.
          Los pierde también en cuanto tú pierdas el permiso del que salen.</p>)}
      {failure && <div class="alert alert-error" role="alert" data-testid="consent-error">{failure}</div>}
      <div class="actions">
        {offered.length > 0 && (
          <button type="submit" class="button button-primary" disabled={busy !== null}>
            {busy === "approve" ? "Autorizando…" : "Autorizar"}</button>
        )}
        <button type="button" class="button button-danger" disabled={busy !== null} onClick={() => void answer(false)}>
          {busy === "deny" ? "Denegando…" : "Denegar"}</button>
      </div>
    </form>
  );
}

export function ConsentScreen({ id }: { id: string }) {
  const loaded = useLoad(() => get<ConsentRequest>(`/api/agents/authorize/${encodeURIComponent(id)}`), [id]);
  const name = loaded.data?.client.name;
  return (
    <>
      <h1 tabIndex={-1}>Autorizar a un agente</h1>
      {loaded.error?.status === 404 ? (
        // Forged, or older than its 10 minutes (spec 3 §8): the API cannot tell which, and neither can we.
        <ErrorBox text={GONE} />
      ) : (
        <Loads loaded={loaded}>
          {(request) => (
            <>
              <p class="lead" data-testid="consent-headline">{name ? `«${name}»` : "Un cliente sin nombre"} quiere
                actuar en Klave en tu nombre, con los permisos que elijas aquí.</p>
              <ClientFacts request={request} />
              <Destination request={request} />
              <Decision id={id} request={request} />
            </>
          )}
        </Loads>
      )}
    </>
  );
}
