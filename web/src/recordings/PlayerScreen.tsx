// One recorded session (issue 42): who, where, what, and the player — asciinema-player, bundled
// (no CDN; its terminal is WebAssembly, which the CSP allows with 'wasm-unsafe-eval' and nothing
// more): play and pause, seek, speed, idle time skipped; the .cast to download.
import "asciinema-player/dist/bundle/asciinema-player.css";
import { useEffect, useRef, useState } from "preact/hooks";
import { del, get, getText } from "../api";
import { when } from "../format";
import { navigate } from "../router";
import { confirmAction } from "../ui/confirm";
import { message, useLoad } from "../ui/load";
import { toast } from "../ui/toasts";
import { ErrorBox, Loads } from "../ui/states";
import { StateBadge, type RecordingView } from "./SessionsScreen";

function Player({ id, startAt }: { id: string; startAt: number }) {
  const holder = useRef<HTMLDivElement>(null);
  const [speed, setSpeed] = useState(1);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    let player: { dispose: () => void } | null = null;
    let gone = false;
    // Fetched once here (watching is an event, recorded by the server), handed to the player as data.
    // The player (and its WebAssembly terminal) is loaded only on this page: its own chunk.
    Promise.all([import("asciinema-player"), getText(`/api/recordings/${encodeURIComponent(id)}/cast`)])
      .then(([AsciinemaPlayer, cast]) => {
      if (gone || !holder.current) return;
      player = AsciinemaPlayer.create({ data: cast }, holder.current, {
        autoPlay: true, speed, idleTimeLimit: 1, fit: "width", controls: true,
        // From search: the moment the line appeared.
        startAt: startAt > 0 ? startAt : undefined,
      });
    }).catch(() => setFailure("No se pudo cargar la grabación."));
    return () => {
      gone = true;
      player?.dispose();
    };
  }, [id, speed, startAt]);
  return (
    <>
      {failure && <div class="alert alert-error" role="alert">{failure}</div>}
      <label class="field"><span>Velocidad</span>
        <select name="speed" value={String(speed)} onChange={(event) => setSpeed(Number(event.currentTarget.value))}>
          {[0.5, 1, 2, 4].map((value) => <option key={value} value={value}>{value}×</option>)}
        </select>
      </label>
      <div ref={holder} class="player" data-testid="player" />
    </>
  );
}

/** An administrator deletes a finished recording (issue 51): asked first, an event, its room freed at once. */
function DeleteRecording({ recording }: { recording: RecordingView }) {
  const [failure, setFailure] = useState<string | null>(null);
  const remove = async () => {
    const answer = await confirmAction({
      title: "Borrar grabación",
      body: <p>Se borra para siempre la grabación de la sesión de <strong>{recording.subject}</strong> en{" "}
        <code>{recording.cluster}/{recording.namespace}/{recording.pod}</code>. La fila de la auditoría se queda, y
        el borrado queda en los eventos de control.</p>,
      confirmLabel: "Borrar",
      danger: true,
    });
    if (!answer) {
      return;
    }
    try {
      await del(`/api/recordings/${encodeURIComponent(recording.id)}`);
      toast("Grabación borrada.");
      navigate("/sesiones");
    } catch (error) {
      setFailure(message(error));
    }
  };
  return (
    <>
      {failure && <div class="alert alert-error" role="alert">{failure}</div>}
      <p><button type="button" class="button button-danger" onClick={remove}
        disabled={recording.state === "recording"}>Borrar grabación</button>
        {recording.state === "recording" && <span class="muted small"> · se puede borrar cuando termine</span>}</p>
    </>
  );
}

export function PlayerScreen({ id, admin }: { id: string; admin: boolean }) {
  const loaded = useLoad(() => get<RecordingView>(`/api/recordings/${encodeURIComponent(id)}`), [id]);
  return (
    <>
      <p class="breadcrumb"><a href="/sesiones">Sesiones</a> / sesión</p>
      <h1 tabIndex={-1}>Sesión grabada</h1>
      {loaded.error?.status === 404 ? <ErrorBox text="No hay ninguna sesión grabada con este enlace que puedas ver." />
        : (
          <Loads loaded={loaded}>
            {(recording) => (
              <>
                <section class="card" aria-labelledby="session-facts">
                  <h2 id="session-facts">Quién, dónde, qué</h2>
                  <dl class="facts">
                    <dt>Persona</dt><dd>{recording.subject}</dd>
                    <dt>Dónde</dt><dd>{recording.cluster} / {recording.namespace} / {recording.pod}
                      {recording.container ? ` (${recording.container})` : ""}</dd>
                    <dt>Orden</dt><dd><code class="wrap">{recording.command}</code></dd>
                    <dt>Empezó</dt><dd>{when(recording.started_at, true)}</dd>
                    <dt>Terminó</dt><dd>{recording.ended_at ? when(recording.ended_at, true) : "en curso"}</dd>
                    <dt>Estado</dt><dd><StateBadge recording={recording} />{recording.reason
                      && <span class="muted small"> · {recording.reason}</span>}</dd>
                    <dt>Audit-ID</dt><dd><a href={`/admin/auditoria/${encodeURIComponent(recording.id)}`}>
                      <code>{recording.id}</code></a></dd>
                  </dl>
                </section>
                <section class="card" aria-labelledby="session-player">
                  <h2 id="session-player">Reproducción</h2>
                  <Player id={recording.id} startAt={Number(new URLSearchParams(location.search).get("t") ?? 0)
                    || 0} />
                  <p><a href={`/api/recordings/${encodeURIComponent(recording.id)}/cast`}
                    download={`${recording.id}.cast`}>Descargar .cast</a> (asciinema play)</p>
                  {admin && <DeleteRecording recording={recording} />}
                </section>
              </>
            )}
          </Loads>
        )}
    </>
  );
}
