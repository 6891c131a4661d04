// /cuenta#kli_…: an invitation or reset link. The token rides in the fragment, which no server
// log sees; it is read once, then wiped from the address bar and history.
import { useEffect, useState } from "preact/hooks";
import { ApiError, getAnonymous, postAnonymous, type LinkInfo, type Me, type Methods } from "../api";
import { PURPOSE, when } from "../format";
import { navigate } from "../router";
import { rememberLinking, rememberProvider } from "../signInErrors";
import { clearNotice } from "../session";
import { message } from "../ui/load";
import { ErrorBox, Loading } from "../ui/states";
import { toast } from "../ui/toasts";

function readToken(): string {
  const token = decodeURIComponent(location.hash.replace(/^#/, ""));
  if (location.hash) {
    history.replaceState(null, "", location.pathname);
  }
  return token;
}

export function LinkScreen({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [token, setToken] = useState(readToken);
  const [info, setInfo] = useState<LinkInfo | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);

  // A corrected link pasted into the same tab changes only the fragment: read it again.
  useEffect(() => {
    const again = () => {
      if (location.hash) {
        setToken(readToken());
      }
    };
    window.addEventListener("hashchange", again);
    return () => window.removeEventListener("hashchange", again);
  }, []);

  useEffect(() => {
    document.title = "Tu cuenta · Klave";
    setInfo(null);
    setFailure(null);
    if (!token.startsWith("kli_")) {
      return;
    }
    let current = true;
    postAnonymous<LinkInfo>("/api/auth/link", { token })
      .then((value) => current && setInfo(value))
      .catch((error) => current && setFailure(error));
    return () => {
      current = false;
    };
  }, [token]);

  return (
    <main class="centered">
      <section class="card card-narrow" aria-labelledby="link-title">
        <p class="brand brand-large"><img src="/favicon.svg" alt="" width="32" height="32" /> Klave</p>
        <h1 id="link-title" tabIndex={-1}>Tu cuenta de Klave</h1>
        {!token.startsWith("kli_") ? (
          <Problem text="Este enlace no lleva ningún código de invitación." advice="Abre el enlace completo que te dio un administrador (termina en #kli_…), o pídele uno nuevo." />
        ) : failure ? (
          <LinkFailure failure={failure} />
        ) : !info ? (
          <Loading label="Comprobando el enlace…" />
        ) : (
          <CompleteLink token={token} info={info} onSignedIn={onSignedIn} />
        )}
      </section>
    </main>
  );
}

function LinkFailure({ failure }: { failure: ApiError }) {
  if (failure.status === 410) {
    return <Problem text={failure.message} advice="Los enlaces de invitación valen 72 horas y los de restablecimiento 24 horas, y solo se pueden usar una vez. Pide a un administrador de Klave que te genere uno nuevo." />;
  }
  if (failure.status === 404) {
    return <Problem text={failure.message} advice="Comprueba que has copiado el enlace completo; si sigue sin funcionar, pide uno nuevo a un administrador." />;
  }
  return <ErrorBox text={failure.message} />;
}

function Problem({ text, advice }: { text: string; advice: string }) {
  return (
    <>
      <div class="alert alert-error" role="alert">{text}</div>
      <p>{advice}</p>
      <p><a href="/login">Ir a la pantalla de entrada</a></p>
    </>
  );
}

function CompleteLink({ token, info, onSignedIn }: { token: string; info: LinkInfo; onSignedIn: (me: Me) => void }) {
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (password !== repeat) {
      setFailure(new ApiError(400, "Las dos contraseñas no coinciden."));
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const me = await postAnonymous<Me>("/api/auth/link/complete", { token, password });
      clearNotice();
      onSignedIn(me);
      toast("Contraseña guardada. Ya has entrado en Klave.");
      navigate("/mi-cuenta", true);
    } catch (error) {
      setFailure(error instanceof ApiError ? error : new ApiError(0, message(error)));
    } finally {
      setBusy(false);
    }
  };

  if (failure?.status === 410) {
    return <LinkFailure failure={failure} />;
  }
  return (
    <>
      <dl class="facts">
        <dt>Usuario</dt><dd data-testid="link-login">{info.login}</dd>
        {info.display_name && <><dt>Nombre</dt><dd>{info.display_name}</dd></>}
        <dt>Enlace</dt><dd data-testid="link-purpose">{PURPOSE[info.purpose] ?? info.purpose}</dd>
        <dt>Caduca</dt><dd>{when(info.expires_at)}</dd>
      </dl>
      {info.forge_required ? (
        <ExternalOnly token={token} />
      ) : (
        <form onSubmit={submit} class="stack" onInvalidCapture={() => setFailure(null)}>
          <p>Elige tu contraseña: al menos 12 caracteres y distinta de tu usuario.</p>
          <input type="text" name="username" autoComplete="username" value={info.login} hidden readOnly />
          <label class="field">
            <span>Contraseña nueva</span>
            <input type="password" autoComplete="new-password" required minLength={12} value={password}
              onInput={(event) => setPassword(event.currentTarget.value)} />
          </label>
          <label class="field">
            <span>Repite la contraseña</span>
            <input type="password" autoComplete="new-password" required value={repeat}
              onInput={(event) => setRepeat(event.currentTarget.value)} />
          </label>
          {failure && <div class="alert alert-error" role="alert">{failure.message}</div>}
          <button type="submit" class="button button-primary button-block" disabled={busy}>
            {busy ? "Guardando…" : "Guardar contraseña y entrar"}
          </button>
        </form>
      )}
    </>
  );
}

/**
 * With forge or OIDC sign-in on, a link links an identity instead of setting a password: one
 * button per provider that is on (OIDC first), each leading through the provider and back signed in.
 */
function ExternalOnly({ token }: { token: string }) {
  const [methods, setMethods] = useState<Methods | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    getAnonymous<Methods>("/api/auth/methods").then(setMethods).catch(() => setMethods(null));
  }, []);
  const start = async (provider: "forge" | "oidc") => {
    try {
      const { url } = await postAnonymous<{ url: string }>(`/api/auth/${provider}/link`, { token });
      rememberProvider(provider);
      rememberLinking(provider);
      location.assign(url);
    } catch (error) {
      setFailure(message(error));
    }
  };
  return (
    <div class="stack">
      <p>Esta cuenta no usa contraseña: vincula tu cuenta para terminar.</p>
      {failure && <div class="alert alert-error" role="alert">{failure}</div>}
      {methods?.oidc && (
        <button type="button" class="button button-primary button-block" onClick={() => start("oidc")}>
          Vincular con {methods.oidc_name} y entrar</button>
      )}
      {methods?.forge && (
        <button type="button" class="button button-primary button-block" onClick={() => start("forge")}>
          Vincular con Forge</button>
      )}
    </div>
  );
}
