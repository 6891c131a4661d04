import { useEffect, useRef, useState } from "preact/hooks";
import { patch, type Subject } from "../api";
import { message } from "../ui/load";

export function EditSubjectForm({ subject, onDone }: { subject: Subject; onDone: (changed: Subject | null) => void }) {
  const [displayName, setDisplayName] = useState(subject.display_name);
  const [email, setEmail] = useState(subject.email ?? "");
  const [admin, setAdmin] = useState(subject.is_admin);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [subject.id]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      onDone(await patch<Subject>(`/api/subjects/${encodeURIComponent(subject.id)}`, {
        display_name: displayName, email: email || null, is_admin: admin,
      }));
    } catch (error) {
      setFailure(message(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card card-highlight" aria-labelledby="edit-title">
      <h2 id="edit-title" ref={heading} tabIndex={-1}>Editar {subject.login}</h2>
      <form onSubmit={submit} class="form-grid" onInvalidCapture={() => setFailure(null)}>
        <label class="field">
          <span>Nombre visible</span>
          <input name="display_name" value={displayName} onInput={(event) => setDisplayName(event.currentTarget.value)} />
        </label>
        <label class="field">
          <span>Correo</span>
          <input name="email" type="email" value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
        </label>
        <label class="check">
          <input type="checkbox" name="is_admin" checked={admin} onChange={(event) => setAdmin(event.currentTarget.checked)} />
          Administrador
        </label>
        {failure && <div class="alert alert-error span-all" role="alert">{failure}</div>}
        <div class="span-all actions">
          <button type="button" class="button" onClick={() => onDone(null)}>Cancelar</button>
          <button type="submit" class="button button-primary" disabled={busy}>{busy ? "Guardando…" : "Guardar cambios"}</button>
        </div>
      </form>
    </section>
  );
}
