import { useEffect, useRef, useState } from "preact/hooks";
import { patch, type Subject } from "../api";
import { message } from "../ui/load";

export function EditSubjectForm({ subject, onDone }: { subject: Subject; onDone: (changed: Subject | null) => void }) {
  const [displayName, setDisplayName] = useState(subject.display_name);
  const [email, setEmail] = useState(subject.email ?? "");
  const [admin, setAdmin] = useState(subject.is_admin);
  const [approval, setApproval] = useState(subject.writes_need_approval ?? false);
  const bot = subject.kind === "bot";
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [subject.id]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      // A bot has neither e-mail nor role (spec 1 §2); only a bot has the approval setting (spec 3 §4).
      onDone(await patch<Subject>(`/api/subjects/${encodeURIComponent(subject.id)}`, bot
        ? { display_name: displayName, writes_need_approval: approval }
        : { display_name: displayName, email: email || null, is_admin: admin }));
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
        {bot ? (
          <div class="span-all">
            <label class="check">
              <input type="checkbox" name="writes_need_approval" checked={approval} aria-describedby="approval-help"
                onChange={(event) => setApproval(event.currentTarget.checked)} />
              Las escrituras necesitan aprobación
            </label>
            <p id="approval-help" class="muted small check-help">Lo que un agente escriba con las credenciales de este bot espera
              a que un administrador lo apruebe.</p>
          </div>
        ) : (
          <>
            <label class="field">
              <span>Correo</span>
              <input name="email" type="email" value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
            </label>
            <label class="check">
              <input type="checkbox" name="is_admin" checked={admin} onChange={(event) => setAdmin(event.currentTarget.checked)} />
              Administrador
            </label>
          </>
        )}
        {failure && <div class="alert alert-error span-all" role="alert">{failure}</div>}
        <div class="span-all actions">
          <button type="button" class="button" onClick={() => onDone(null)}>Cancelar</button>
          <button type="submit" class="button button-primary" disabled={busy}>{busy ? "Guardando…" : "Guardar cambios"}</button>
        </div>
      </form>
    </section>
  );
}
