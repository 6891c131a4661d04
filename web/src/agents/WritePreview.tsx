// A held write's preview (spec 3 §4): each changed field before → after, then the whole object as
// it is and as the cluster's dry run left it, its changed lines marked. Secret values arrive
// already hidden ("<redacted, N bytes[, changed]>", spec 3 §8); the page says so in Spanish
// ("‹oculto, N bytes›"), the API's text stays as the specification writes it.
import type { PreviewChange, WriteRequest } from "../api";
import { hiddenText, isChanged, normalPath, yamlLines } from "./yamlLines";

function valueText(value: unknown, absent: string): string {
  if (value === null || value === undefined) {
    return absent;
  }
  return typeof value === "string" ? hiddenText(value) : JSON.stringify(value);
}

function Change({ change }: { change: PreviewChange }) {
  return (
    <li>
      <code class="change-path">{change.path}</code>
      <span class="change-values">
        <span class="visually-hidden">antes: </span>
        <del class="change-before">{valueText(change.before, "(no existe)")}</del>
        <span aria-hidden="true"> → </span>
        <span class="visually-hidden">, después: </span>
        <ins class="change-after">{valueText(change.after, "(se quita)")}</ins>
      </span>
    </li>
  );
}

function ObjectView({ title, value, changed, testId }: {
  title: string; value: unknown; changed: string[]; testId: string;
}) {
  const lines = yamlLines(value);
  const marked = lines.filter((line) => isChanged(line.path, changed)).length;
  return (
    <details class="object" data-testid={testId}>
      <summary>{title}{marked > 0 && <span class="muted small"> · {marked} {marked === 1 ? "línea cambia" : "líneas cambian"}</span>}</summary>
      <pre class="yaml">{lines.map((line, index) => isChanged(line.path, changed)
        ? <span key={index} class="yaml-line yaml-changed"><span class="visually-hidden">cambia: </span>{line.text}{"\n"}</span>
        : <span key={index} class="yaml-line">{line.text}{"\n"}</span>)}</pre>
    </details>
  );
}

export function WritePreview({ request }: { request: WriteRequest }) {
  const preview = request.preview;
  if (!preview) {
    return <section class="card"><h2>Cambios</h2><p class="muted">Esta solicitud no tiene vista previa.</p></section>;
  }
  // The server passes on as text a preview it could not read as JSON: shown as it came.
  if (typeof preview !== "object" || !Array.isArray(preview.changes)) {
    return (
      <section class="card">
        <h2>Cambios</h2>
        <p class="muted">La vista previa llegó sin el formato esperado; esto es lo que guardó la herramienta:</p>
        <pre class="yaml">{typeof preview === "string" ? preview : JSON.stringify(preview, null, 2)}</pre>
      </section>
    );
  }
  const changed = preview.changes.map((change) => normalPath(change.path));
  const deleting = preview.verb === "delete" || preview.result === null;
  return (
    <section class="card" aria-labelledby="changes-title">
      <h2 id="changes-title">Cambios</h2>
      {deleting && <p data-testid="preview-delete">Se borrará el objeto entero.</p>}
      {preview.changes.length > 0
        ? <ul class="changes" data-testid="changes">{preview.changes.map((change) =>
          <Change key={change.path} change={change} />)}</ul>
        : !deleting && <p class="muted" data-testid="preview-nothing">La escritura no cambia ningún campo del objeto.</p>}
      {preview.current === null
        ? <p class="muted small">El objeto no existe todavía: la escritura lo crea.</p>
        : <ObjectView title="Objeto actual" value={preview.current} changed={changed} testId="object-current" />}
      {!deleting && <ObjectView title="Objeto resultante (prueba en seco del cluster)" value={preview.result}
        changed={changed} testId="object-result" />}
    </section>
  );
}
