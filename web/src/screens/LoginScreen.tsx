import { useEffect, useState } from "preact/hooks";
import { ApiError, getAnonymous, postAnonymous, type Me } from "../api";
import { rememberProvider, signInError, takeLinked } from "../signInErrors";
import { navigate, useLocation } from "../router";
import { clearNotice, currentNotice, nextParameter, returnPath, safeNext } from "../session";
import { message } from "../ui/load";
import { forgeName, oidcName, useMethods } from "../ui/methods";

export function LoginScreen({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const { search } = useLocation();
  const methods = useMethods();
  const [login, setLogin] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ text: string; locked: boolean } | null>(null);
  const [contact, setContact] = useState<string | null>(null);
  const notice = currentNotice();
  const code = search.get("error");
  // The page to come back to (the consent page of an agent, spec 3 §4): the providers' sign-ins carry it too.
  const next = search.get("next");
  // Shown once the providers that are on are known: a message names only those.
  const failed = code === null || methods === undefined ? null : signInError(code, {
    forge: methods.forge, oidc: methods.oidc, oidcName: methods.oidc_name,
  });

  useEffect(() => {
    document.title = "Entrar · Klave";
    // A link that failed comes back here: nothing was linked.
    takeLinked();
    getAnonymous<{ contact: string | null }>("/api/auth/help").then((help) => setContact(help.contact))
      .catch(() => setContact(null));
  }, []);

  // The anchor #forge-<code> or #oidc-<code> names the message; bring it into view when the URL points at it.
  useEffect(() => {
    if (failed?.anchor && location.hash === `#${failed.anchor}`) {
      document.getElementById(failed.anchor)?.scrollIntoView();
    }
  }, [failed?.anchor]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const me = await postAnonymous<Me>("/api/auth/login", { login, password });
      clearNotice();
      onSignedIn(me);
      navigate(safeNext(next), true);
    } catch (error) {
      setFailure({ text: message(error), locked: error instanceof ApiError && error.status === 429 });
      setPassword("");
    } finally {
      setBusy(false);
    }
  };

  const external = methods && (methods.oidc || methods.forge);
  return (
    <main class="centered">
      <section class="card card-narrow" aria-labelledby="login-title">
        <p class="brand brand-large"><img src="/favicon.svg" alt="" width="32" height="32" /> Klave</p>
        <h1 id="login-title" tabIndex={-1}>Entrar</h1>
        {notice && <div class="alert alert-warning" role="alert">{notice}</div>}
        {returnPath(next)?.startsWith("/agents/authorize/") && (
          <p class="muted" data-testid="login-for-agent">Un agente te pide acceso: entra y vuelves a la página de autorización.</p>
        )}
        {failed && (
          <div class="alert alert-error alert-stack" role="alert" id={failed.anchor ?? undefined}>
            <p>{failed.text}</p>
            {failed.showContact && contact && <p data-testid="access-contact">{contact}</p>}
            {failed.tryAnotherAccount && methods?.oidc && (
              <p><a href={`/api/auth/oidc/login?prompt=select_account${nextParameter(next, false)}`} onClick={() => rememberProvider("oidc")}>
                Probar con otra cuenta</a></p>
            )}
          </div>
        )}
        {external && (
          <div class="stack">
            {methods.oidc && (
              <a class="button button-primary button-block" href={`/api/auth/oidc/login${nextParameter(next)}`}
                onClick={() => rememberProvider("oidc")}>
                Entrar con {oidcName(methods)}
              </a>
            )}
            {methods.forge && (
              <a class="button button-primary button-block" href={`/api/auth/forge/login${nextParameter(next)}`}
                onClick={() => rememberProvider("forge")}>
                Entrar con {forgeName(methods)}
              </a>
            )}
            <p class="muted divider">o con contraseña (solo cuentas de emergencia)</p>
          </div>
        )}
        <form onSubmit={submit} class="stack" aria-describedby={failure ? "login-failure" : undefined}
          onInvalidCapture={() => setFailure(null)}>
          <label class="field">
            <span>Usuario</span>
            <input name="login" autoComplete="username" required value={login} autoFocus
              onInput={(event) => setLogin(event.currentTarget.value)} />
          </label>
          <label class="field">
            <span>Contraseña</span>
            <input name="password" type="password" autoComplete="current-password" required value={password}
              onInput={(event) => setPassword(event.currentTarget.value)} />
          </label>
          {failure && (
            <div class="alert alert-error alert-stack" role="alert" id="login-failure">
              <p>{failure.text}</p>
              {/* The same words whether the account exists or not (spec 1 §5: the lockout must not tell). */}
              {failure.locked && <p data-testid="lockout-help">Espera unos minutos (hasta 15) antes de volver a intentarlo.
                Si no recuerdas la contraseña, pide a un administrador un enlace nuevo.</p>}
            </div>
          )}
          <button type="submit" class="button button-primary button-block" disabled={busy}>
            {busy ? "Entrando…" : "Entrar"}
          </button>
        </form>
        <p class="muted small">¿No tienes cuenta? Un administrador de Klave te envía un enlace de invitación.</p>
      </section>
    </main>
  );
}
