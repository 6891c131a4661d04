import { useState } from "preact/hooks";
import { post, type CreatedPerson, type Subject } from "../api";
import { message } from "../ui/load";

export function CreateSubjectForm({ onCreated }: { onCreated: (created: Partial<CreatedPerson> & Pick<Subject, "login">) => void }) {
  const [kind, setKind] = useState<"person" | "bot">("person");
  const [login, setLogin] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [email, setEmail] = useState("");
  const [admin, setAdmin] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const body = kind === "bot"
        ? { kind: "bot", login, display_name: displayName }
        : { login, display_name: displayName, ...(email ? { email } : {}), is_admin: admin };
      onCreated(await post<CreatedPerson>("/api/subjects", body));
      setLogin("");
      setDisplayName("");
      setEmail("");
      setAdmin(false);
    } catch (error) {
      setFailure(message(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="create-title">
      <h2 id="create-title">Dar de alta</h2>
      <form onSubmit={submit} class="form-grid" onInvalidCapture={() => setFailure(null)}>
        <fieldset class="span-all segmented">
          <legend>Tipo</legend>
          <label><input type="radio" name="kind" checked={kind === "person"} onChange={() => setKind("person")} /> Persona</label>
          <label><input type="radio" name="kind" checked={kind === "bot"} onChange={() => setKind("bot")} /> Bot</label>
        </fieldset>
        <label class="field">
          <span>Login (nombre de usuario)</span>
          <input name="login" required value={login} autoComplete="off" spellcheck={false}
            onInput={(event) => setLogin(event.currentTarget.value)} />
        </label>
        <label class="field">
          <span>Nombre visible</span>
          <input name="display_name" value={displayName} onInput={(event) => setDisplayName(event.currentTarget.value)} />
        </label>
        {kind === "person" && (
          <>
            <label class="field">
              <span>Correo (opcional)</span>
              <input name="email" type="email" value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
            </label>
            <label class="check">
              <input type="checkbox" name="is_admin" checked={admin} onChange={(event) => setAdmin(event.currentTarget.checked)} />
              Administrador
            </label>
          </>
        )}
        <p class="muted small span-all">Los logins no se reutilizan nunca, ni después de deshabilitar la cuenta.
          {kind === "person" ? " Klave crea un enlace de invitación de un solo uso (72 horas)." : " Los bots no tienen contraseña ni sesión: usan credenciales."}</p>
        {failure && <div class="alert alert-error span-all" role="alert">{failure}</div>}
        <div class="span-all">
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? "Creando…" : kind === "person" ? "Crear persona e invitar" : "Crear bot"}
          </button>
        </div>
      </form>
    </section>
  );
}
