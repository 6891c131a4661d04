import { get, query, type AuditRow, type Grant, type Me, type Page } from "../api";
import { forgeError } from "../forgeErrors";
import { useLocation } from "../router";
import { AuditTable } from "../ui/AuditTable";
import { GrantsTable } from "../ui/GrantsTable";
import { useLoad } from "../ui/load";
import { Loads } from "../ui/states";
import { CredentialsPanel } from "./CredentialsPanel";
import { PasswordForm } from "./PasswordForm";

export function AccountScreen({ me }: { me: Me; onMeChanged: (me: Me) => void }) {
  const { search } = useLocation();
  const code = search.get("error");
  const forge = code === null ? null : forgeError(code);
  const grants = useLoad(() => get<Grant[]>(`/api/grants${query({ subject: me.id })}`), [me.id]);
  const audit = useLoad(() => get<Page<AuditRow>>(`/api/audit${query({ subject: me.id })}`), [me.id]);

  return (
    <>
      <h1 tabIndex={-1}>Mi cuenta</h1>
      {forge && <div class="alert alert-error" role="alert" id={forge.anchor ?? undefined}>{forge.text}</div>}
      {search.get("forge") === "linked" && <div class="alert alert-ok" role="status">Cuenta de Forge vinculada.</div>}
      <div class="grid-2">
        <section class="card" aria-labelledby="profile-title">
          <h2 id="profile-title">Datos</h2>
          <dl class="facts">
            <dt>Usuario</dt><dd data-testid="me-login">{me.login}</dd>
            <dt>Nombre</dt><dd>{me.display_name || "—"}</dd>
            <dt>Correo</dt><dd>{me.email || "—"}</dd>
            <dt>Rol</dt><dd>{me.is_admin ? "administrador" : "usuario"}</dd>
            <dt>Forge</dt><dd>{me.forge ? `vinculada (${me.forge.login})` : "sin vincular"}</dd>
            {me.break_glass && <><dt>Emergencia</dt><dd>cuenta de emergencia (break-glass)</dd></>}
          </dl>
        </section>
        <section class="card" aria-labelledby="password-title">
          <h2 id="password-title">Contraseña</h2>
          {me.can_use_password
            ? <PasswordForm login={me.login} />
            : <p>Esta cuenta entra con Forge: no usa contraseña.</p>}
        </section>
      </div>
      <CredentialsPanel me={me} />
      <section class="card" aria-labelledby="grants-title">
        <h2 id="grants-title">Mis permisos</h2>
        <Loads loaded={grants} empty="Todavía no tienes permisos en ningún cluster. Pídeselos a un administrador.">
          {(list) => <GrantsTable grants={list} showSubject={false} />}
        </Loads>
      </section>
      <section class="card" aria-labelledby="audit-title">
        <h2 id="audit-title">Mi actividad reciente</h2>
        <Loads loaded={audit}>
          {(page) => page.events.length === 0
            ? <p class="state state-empty">Ninguna petición tuya a los clusters todavía.</p>
            : <AuditTable rows={page.events} linkDetails={me.is_admin} />}
        </Loads>
      </section>
    </>
  );
}
