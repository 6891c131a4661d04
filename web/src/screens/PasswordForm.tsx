import { useState } from "preact/hooks";
import { post } from "../api";
import { message } from "../ui/load";
import { toast } from "../ui/toasts";

export function PasswordForm({ login }: { login: string }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setFailure(null);
    if (next !== repeat) {
      setFailure("Las dos contraseñas nuevas no coinciden.");
      return;
    }
    setBusy(true);
    try {
      await post("/api/me/password", { current_password: current, new_password: next });
      setCurrent("");
      setNext("");
      setRepeat("");
      toast("Contraseña cambiada. Se han cerrado tus otras sesiones.");
    } catch (error) {
      setFailure(message(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} class="stack" onInvalidCapture={() => setFailure(null)}>
      <input type="text" name="username" autoComplete="username" value={login} hidden readOnly />
      <label class="field">
        <span>Contraseña actual</span>
        <input type="password" autoComplete="current-password" required value={current}
          onInput={(event) => setCurrent(event.currentTarget.value)} />
      </label>
      <label class="field">
        <span>Contraseña nueva (al menos 12 caracteres)</span>
        <input type="password" autoComplete="new-password" required minLength={12} value={next}
          onInput={(event) => setNext(event.currentTarget.value)} />
      </label>
      <label class="field">
        <span>Repite la contraseña nueva</span>
        <input type="password" autoComplete="new-password" required value={repeat}
          onInput={(event) => setRepeat(event.currentTarget.value)} />
      </label>
      {failure && <div class="alert alert-error" role="alert">{failure}</div>}
      <button type="submit" class="button" disabled={busy}>{busy ? "Cambiando…" : "Cambiar contraseña"}</button>
    </form>
  );
}
