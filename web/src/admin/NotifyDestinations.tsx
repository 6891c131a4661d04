// Notifications out of Klave (issue 41), on the installation page: the webhook destinations with
// how their last delivery went, a form to add one (a JSON one's signing secret shown once), a test,
// and each destination's delivery log. Whether e-mail is on is said here too.
import { useState } from "preact/hooks";
import { del, get, post } from "../api";
import { when } from "../format";
import { CardTable } from "../ui/CardTable";
import { confirmAction } from "../ui/confirm";
import { message, useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { toast } from "../ui/toasts";

interface KindsView { kinds: { code: string; description: string }[]; email: boolean }

interface DestinationView {
  id: string; name: string; format: "slack" | "json"; address: string; kinds: string[]; created_at: string;
  last_attempt_at: string | null; last_status: number | null; last_error: string | null;
  last_delivered_at: string | null; failing_since: string | null;
}

interface DeliveryView {
  id: string; kind: string; created_at: string; attempts: number; delivered_at: string | null;
  gave_up_at: string | null; next_attempt_at: string | null; last_status: number | null; last_error: string | null;
}

function Log({ destination }: { destination: DestinationView }) {
  const log = useLoad(() => get<DeliveryView[]>(`/api/notifications/destinations/${encodeURIComponent(
    destination.id)}/deliveries`), [destination.id]);
  return (
    <Loads loaded={log} empty="Todavía no se le ha enviado nada.">
      {(rows) => (
        <ul class="plain stack-small" data-testid={`log-${destination.id}`}>
          {rows.map((row) => (
            <li key={row.id}>
              <code>{row.kind}</code> · {when(row.created_at)} · {row.delivered_at
                ? `entregado (${row.last_status ?? "—"})` : row.gave_up_at ? "abandonado"
                : `pendiente, intento ${row.attempts + 1}${row.next_attempt_at ? ` el ${when(row.next_attempt_at)}` : ""}`}
              {row.last_error && !row.delivered_at && <span class="muted small wrap"> · {row.last_error}</span>}
            </li>
          ))}
        </ul>
      )}
    </Loads>
  );
}

function NewDestination({ kinds, onCreated }: { kinds: KindsView["kinds"]; onCreated: () => void }) {
  const [name, setName] = useState("");
  const [format, setFormat] = useState<"slack" | "json">("slack");
  const [url, setUrl] = useState("");
  const [chosen, setChosen] = useState<string[]>(["access.waiting", "write.waiting"]);
  const [secret, setSecret] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setFailure(null);
    try {
      const made = await post<{ secret: string | null }>("/api/notifications/destinations",
        { name, format, url, kinds: chosen });
      setSecret(made.secret);
      setName("");
      setUrl("");
      toast("Destino añadido.");
      onCreated();
    } catch (error) {
      setFailure(message(error));
    }
  };
  return (
    <form class="form-grid" onSubmit={submit} data-testid="new-destination">
      <label class="field"><span>Nombre</span>
        <input name="destination-name" required maxLength={100} value={name}
          onInput={(event) => setName(event.currentTarget.value)} /></label>
      <label class="field"><span>Formato</span>
        <select name="destination-format" value={format}
          onChange={(event) => setFormat(event.currentTarget.value as "slack" | "json")}>
          <option value="slack">Slack (incoming webhook)</option>
          <option value="json">JSON firmado (HMAC-SHA256)</option>
        </select></label>
      <label class="field span-all"><span>Dirección (https)</span>
        <input name="destination-url" type="url" required value={url} placeholder="https://hooks.slack.com/services/…"
          onInput={(event) => setUrl(event.currentTarget.value)} /></label>
      <fieldset class="field span-all">
        <legend>Qué avisos recibe</legend>
        {kinds.map((kind) => (
          <label class="check" key={kind.code}>
            <input type="checkbox" name={`kind-${kind.code}`} checked={chosen.includes(kind.code)}
              onChange={(event) => setChosen(event.currentTarget.checked ? [...chosen, kind.code]
                : chosen.filter((code) => code !== kind.code))} /> {kind.description}
          </label>
        ))}
      </fieldset>
      {failure && <div class="alert alert-error span-all" role="alert">{failure}</div>}
      {secret && <div class="alert alert-warning span-all" role="status" data-testid="destination-secret">
        Secreto para verificar la firma (solo se muestra ahora): <code class="wrap">{secret}</code></div>}
      <div class="span-all"><button type="submit" class="button button-primary">Añadir destino</button></div>
    </form>
  );
}

export function NotifyDestinations() {
  const catalogue = useLoad(() => get<KindsView>("/api/notifications/kinds"), []);
  const [version, setVersion] = useState(0);
  const list = useLoad(() => get<DestinationView[]>("/api/notifications/destinations"), [version]);
  const [shown, setShown] = useState<string | null>(null);
  const reload = () => setVersion((value) => value + 1);
  const test = async (destination: DestinationView) => {
    try {
      await post(`/api/notifications/destinations/${encodeURIComponent(destination.id)}/test`);
      toast("Prueba en camino: mira su registro en unos segundos.");
      window.setTimeout(reload, 3000);
    } catch (error) {
      toast(message(error));
    }
  };
  const remove = async (destination: DestinationView) => {
    if (!(await confirmAction({ title: "Quitar el destino", body: <p>«{destination.name}» deja de recibir avisos; lo
      pendiente para él no se enviará.</p>, confirmLabel: "Quitar", danger: true }))) {
      return;
    }
    await del(`/api/notifications/destinations/${encodeURIComponent(destination.id)}`).catch((error) =>
      toast(message(error)));
    reload();
  };
  return (
    <section class="card" aria-labelledby="notify-title" data-testid="notify-destinations">
      <h2 id="notify-title">Avisos fuera de Klave</h2>
      <p class="muted">Solicitudes que esperan, decisiones, accesos que terminan y avisos para administradores, a
        Slack o a un receptor JSON. Nunca llevan tokens ni credenciales: solo un enlace a Klave.{" "}
        {catalogue.data && (catalogue.data.email ? "El correo está activado (SERVICE_SMTP_URL)."
          : "El correo está desactivado: configura SERVICE_SMTP_URL para avisar también por correo.")}</p>
      <Loads loaded={list} empty="Ningún destino todavía.">
        {(destinations) => (
          <CardTable label="Destinos de avisos">
            <thead>
              <tr><th scope="col">Nombre</th><th scope="col">Formato</th><th scope="col">Avisos</th>
                <th scope="col">Última entrega</th><th scope="col"><span class="visually-hidden">Acciones</span></th></tr>
            </thead>
            <tbody>
              {destinations.map((destination) => (
                <tr key={destination.id} data-testid={`destination-${destination.id}`}>
                  <td class="wrap">{destination.name}<div class="muted small">{destination.address}</div></td>
                  <td>{destination.format === "slack" ? "Slack" : "JSON firmado"}</td>
                  <td>{destination.kinds.join(", ")}</td>
                  <td>{destination.failing_since
                    ? <span class="pill pill-bad">falla desde el {when(destination.failing_since)}</span>
                    : destination.last_delivered_at ? <span class="pill pill-ok">bien, {when(destination.last_delivered_at)}</span>
                      : <span class="pill pill-off">sin envíos</span>}
                    {destination.last_error && <div class="muted small wrap">{destination.last_status
                      ? `HTTP ${destination.last_status}: ` : ""}{destination.last_error}</div>}
                    {shown === destination.id && <Log destination={destination} />}</td>
                  <td class="row-actions">
                    <button type="button" class="button button-small" onClick={() => setShown(shown === destination.id
                      ? null : destination.id)} aria-label={`Registro de «${destination.name}»`}>Registro</button>
                    <button type="button" class="button button-small" onClick={() => test(destination)}
                      aria-label={`Probar «${destination.name}»`}>Probar</button>
                    <button type="button" class="button button-small button-danger" onClick={() => remove(destination)}
                      aria-label={`Quitar «${destination.name}»`}>Quitar</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </CardTable>
        )}
      </Loads>
      {catalogue.data && <NewDestination kinds={catalogue.data.kinds} onCreated={reload} />}
    </section>
  );
}
