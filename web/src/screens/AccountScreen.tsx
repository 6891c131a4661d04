import { useState } from "preact/hooks";
import { get, post, query, type AuditRow, type Grant, type Me, type Page } from "../api";
import { rememberProvider, signInError, takeLinked } from "../signInErrors";
import { when } from "../format";
import { useLocation } from "../router";
import { AuditTable } from "../ui/AuditTable";
import { GrantsTable } from "../ui/GrantsTable";
import { message, useLoad } from "../ui/load";
import { forgeName, oidcName, useMethods } from "../ui/methods";
import { Loads } from "../ui/states";
import { CredentialsPanel } from "./CredentialsPanel";
import { PasswordForm } from "./PasswordForm";
import { Pager } from "../admin/Pager";
import { OwnAgents } from "../agents/OwnAgents";
import { OwnAccess } from "../access/OwnAccess";
import { ConnectAgent } from "../agents/ConnectAgent";
import { FirstSteps } from "../admin/FirstSteps";

export function AccountScreen({ me }: { me: Me; onMeChanged: (me: Me) => void }) {
  const { search } = useLocation();
  const code = search.get("error");
  const on = useMethods();
  // Arriving from a link that linked a provider (the provider sends people to "/"): say so, once.
  const [justLinked] = useState(() => code === null ? takeLinked() : null);
  const linkedWith = search.get("oidc") === "linked" || justLinked === "oidc" ? "oidc"
    : search.get("forge") === "linked" || justLinked === "forge" ? "forge" : null;
  const failed = code === null || on === undefined ? null : signInError(code, {
    forge: on.forge, oidc: on.oidc, oidcName: on.oidc_name,
  });
  // Which provider this account signs in with: the one it is linked to, else the one that is on.
  const signsInWith = me.oidc ? oidcName(on) : me.forge ? "Forge"
    : on?.oidc ? oidcName(on) : on?.forge ? "Forge" : "su proveedor de identidad";
  const grants = useLoad(() => get<Grant[]>(`/api/grants${query({ subject: me.id })}`), [me.id]);
  const current = useLoad(() => get<Me>("/api/me"), []);
  const [activityPage, setActivityPage] = useState(1);
  const audit = useLoad(() => get<Page<AuditRow>>(`/api/audit${query({ subject: me.id,
    page: activityPage > 1 ? activityPage : undefined })}`), [me.id, activityPage]);

  return (
    <>
      <h1 tabIndex={-1}>Mi cuenta</h1>
      {failed && <div class="alert alert-error" role="alert" id={failed.anchor ?? undefined}>{failed.text}</div>}
      {linkedWith && <div class="alert alert-ok" role="status" data-testid="provider-linked">
        Cuenta de {linkedWith === "oidc" ? oidcName(on) : "Forge"} vinculada: desde ahora entras con ella.</div>}
      {me.is_admin && <FirstSteps />}
      <CredentialsPanel me={me} />
      <div class="grid-2">
        <section class="card" aria-labelledby="profile-title">
          <h2 id="profile-title">Datos</h2>
          <dl class="facts">
            <dt>Usuario</dt><dd data-testid="me-login">{me.login}</dd>
            <dt>Nombre</dt><dd>{me.display_name || "—"}</dd>
            <dt>Correo</dt><dd>{me.email || "—"}</dd>
            <dt>Rol</dt><dd>{me.is_admin ? "administrador" : "usuario"}</dd>
            {(on?.forge || me.forge) && (
              <>
                <dt>Forge</dt>
                <dd data-testid="me-forge">
                  {me.forge ? `vinculada (${me.forge.login})` : "sin vincular"}
                  {!me.forge && on?.forge && <LinkProvider provider="forge" name={forgeName(on)} />}
                </dd>
              </>
            )}
            {on?.oidc && (
              <>
                <dt>{on.oidc_name}</dt>
                <dd data-testid="me-oidc">
                  {me.oidc ? `vinculada (${me.oidc.email ?? me.oidc.subject})` : "sin vincular"}
                  {!me.oidc && <LinkProvider provider="oidc" name={on.oidc_name} />}
                </dd>
              </>
            )}
            {me.break_glass && <><dt>Emergencia</dt><dd>cuenta de emergencia (break-glass)</dd></>}
            {current.data?.session_expires_at && <><dt>Esta sesión</dt>
              <dd data-testid="session-expiry">termina el {when(current.data.session_expires_at)}</dd></>}
          </dl>
        </section>
        <section class="card" aria-labelledby="password-title">
          <h2 id="password-title">Contraseña</h2>
          {me.can_use_password
            ? <PasswordForm login={me.login} />
            : <p data-testid="no-password">Esta cuenta entra con {signsInWith}: no usa contraseña.</p>}
        </section>
      </div>
      <section class="card" aria-labelledby="grants-title">
        <h2 id="grants-title">Mis permisos</h2>
        <Loads loaded={grants} empty={me.is_admin
          ? "Todavía no tienes permisos en ningún cluster. Como administrador, puedes darte uno en Permisos."
          : "Todavía no tienes permisos en ningún cluster. Pide acceso aquí debajo, en «Acceso cuando lo necesitas»."}>
          {(list) => <GrantsTable grants={list} showSubject={false} label="Mis permisos" />}
        </Loads>
      </section>
      <OwnAccess />
      <OwnAgents me={me} />
      <ConnectAgent />
      <section class="card" aria-labelledby="audit-title">
        <h2 id="audit-title">Mi actividad reciente</h2>
        <p class="muted small">Tus sesiones de <code>kubectl exec</code> y <code>attach</code> quedan grabadas:{" "}
          <a href="/sesiones">ver mis sesiones</a>.</p>
        <Loads loaded={audit}>
          {(page) => page.events.length === 0
            ? <p class="state state-empty">Ninguna petición tuya a los clusters todavía.</p>
            : <>
              <AuditTable rows={page.events} linkDetails={me.is_admin} label="Mi actividad reciente" />
              <Pager page={page.page} hasMore={page.has_more} onPage={setActivityPage} />
            </>}
        </Loads>
      </section>
    </>
  );
}

/**
 * Linking one's own account (spec 1 §4 POST /api/me/forge/link, spec 2 §5 "Other ways to link"):
 * Klave answers the provider's authorization address and sets the state cookie; the browser goes
 * there and comes back to /mi-cuenta?<provider>=linked or /mi-cuenta?error=<code>.
 */
function LinkProvider({ provider, name }: { provider: "forge" | "oidc"; name: string }) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const { url } = await post<{ url: string }>(`/api/me/${provider}/link`);
      rememberProvider(provider);
      window.location.assign(url);
    } catch (error) {
      setFailure(message(error));
      setBusy(false);
    }
  };
  return (
    <div class="stack-small">
      <button type="button" class="button button-small" onClick={start} disabled={busy}
        data-testid={`link-${provider}`}>Vincular con {name}</button>
      {failure && <div class="alert alert-error" role="alert">{failure}</div>}
    </div>
  );
}
