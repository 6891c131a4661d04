import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { del, post, query, type Me, type Subject } from "../api";
import { when } from "../format";
import { confirmAction } from "../ui/confirm";
import { CursorPager, useCursorPages } from "../ui/cursorPages";
import { RowActions, RowMenu } from "../ui/RowMenu";
import { message } from "../ui/load";
import { oidcName, useMethods } from "../ui/methods";
import { OneTimeLink, type OneTimeLinkValue } from "../ui/OneTimeLink";
import { CardTable } from "../ui/CardTable";
import { Loads } from "../ui/states";
import { toast } from "../ui/toasts";
import { CreateSubjectForm } from "./CreateSubjectForm";
import { EditSubjectForm } from "./EditSubjectForm";
import { ForgeStatusPanel } from "./ForgeStatusPanel";
import { OidcStatusPanel } from "./OidcStatusPanel";

/** Whether the person has never been able to sign in: a new link is their first, not a reset. */
function neverActivated(subject: Subject): boolean {
  return subject.kind === "person" && !subject.has_password && !subject.forge && !subject.oidc && !subject.last_sign_in_at;
}

export function UsersScreen({ me }: { me: Me }) {
  const [link, setLink] = useState<OneTimeLinkValue | null>(null);
  const methods = useMethods();
  const oidc = oidcName(methods);
  const provider = methods?.forge || methods?.oidc;
  /** What a new link is for this person: activation (never signed in), linking (a provider is on) or a reset. */
  const linkKind = (subject: Subject) => neverActivated(subject) ? "Enlace de activación"
    : provider && !subject.break_glass ? "Enlace de vinculación" : "Enlace de restablecimiento";
  const [editing, setEditing] = useState<Subject | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [search, setSearch] = useState("");
  const [kind, setKind] = useState("");
  const [state, setState] = useState("");
  const [adminsOnly, setAdminsOnly] = useState(false);
  // The server filters and pages (50 at a time, by login); what is typed goes once typing pauses.
  const [text, setText] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setText(search.trim()), 300);
    return () => clearTimeout(timer);
  }, [search]);
  const subjects = useCursorPages<Subject>(`/api/subjects${query({ q: text, kind, status: state, admin: adminsOnly })}`);
  const activeCredentials = (subject: Subject) => subject.active_credentials ?? 0;

  const act = async (subject: Subject, action: "disable" | "enable" | "reset-link" | "logout") => {
    const who = subject.display_name ? `${subject.display_name} (${subject.login})` : subject.login;
    const questions = {
      disable: {
        title: `Deshabilitar a ${subject.login}`,
        body: <p>{who} no podrá entrar; se cerrarán sus sesiones, se revocarán sus credenciales (también las conexiones abiertas) y sus enlaces pendientes. Sus permisos se conservan pero dejan de contar.</p>,
        confirmLabel: "Deshabilitar", danger: true,
      },
      enable: {
        title: `Habilitar a ${subject.login}`,
        body: <p>{who} podrá volver a entrar y sus permisos volverán a contar. Las credenciales revocadas siguen revocadas.</p>,
        confirmLabel: "Habilitar",
      },
      "reset-link": {
        title: `${linkKind(subject)} para ${subject.login}`,
        body: neverActivated(subject)
          ? <p>{who} todavía no ha entrado nunca: el enlace nuevo le sirve para activar su cuenta y anula la invitación
            anterior. Vale 24 horas y solo se muestra una vez.</p>
          : <p>Se cerrarán ya todas las sesiones de {who} y se anularán sus enlaces pendientes. El enlace nuevo vale 24
            horas y solo se muestra una vez.</p>,
        confirmLabel: "Generar enlace", danger: true,
      },
      logout: {
        title: `Cerrar las sesiones de ${subject.login}`,
        body: <p>{who} tendrá que volver a entrar en todos sus navegadores. Sus credenciales siguen funcionando.</p>,
        confirmLabel: "Cerrar sesiones", danger: true,
      },
    }[action];
    if (!(await confirmAction(questions))) {
      return;
    }
    setFailure(null);
    try {
      const answer = await post<{ reset_link?: string; expires_at?: string }>(
        `/api/subjects/${encodeURIComponent(subject.id)}/${action}`);
      if (action === "reset-link" && answer?.reset_link) {
        setLink({ title: linkKind(subject), login: subject.login, link: answer.reset_link, expires: answer.expires_at ?? "" });
      }
      toast({
        disable: `${subject.login} deshabilitado.`,
        enable: `${subject.login} habilitado.`,
        "reset-link": `${linkKind(subject)} creado para ${subject.login}.`,
        logout: `Sesiones de ${subject.login} cerradas.`,
      }[action]);
      subjects.reload();
    } catch (error) {
      setFailure(message(error));
    }
  };

  const unlink = async (subject: Subject, provider: "forge" | "oidc") => {
    const identity = provider === "forge" ? `La cuenta de Forge ${subject.forge?.login}`
      : `La identidad de ${oidc} ${subject.oidc?.email ?? subject.oidc?.subject}`;
    const answer = await confirmAction({
      title: `Desvincular a ${subject.login} de ${provider === "forge" ? "Forge" : oidc}`,
      body: <p>{identity} dejará de abrir la cuenta {subject.login}, y se cerrarán ya sus sesiones.</p>,
      confirmLabel: "Desvincular", danger: true,
    });
    if (!answer) {
      return;
    }
    setFailure(null);
    try {
      await del(`/api/subjects/${encodeURIComponent(subject.id)}/${provider}`);
      toast(`${subject.login} desvinculado de ${provider === "forge" ? "Forge" : oidc}.`);
      subjects.reload();
    } catch (error) {
      setFailure(message(error));
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Usuarios</h1>
      <p class="lead">Personas y bots que pueden tener permisos en los clusters.</p>
      {link && <OneTimeLink value={link} onDone={() => {
        setLink(null);
        document.querySelector<HTMLElement>("main h1")?.focus();
      }} />}
      <CreateSubjectForm onCreated={(created) => {
        if (created.invite_link) {
          setLink({ title: "Invitación", login: created.login, link: created.invite_link, expires: created.invite_expires_at ?? "" });
        }
        toast(`${created.login} creado.`);
        subjects.reload();
      }} />
      <OidcStatusPanel />
      <ForgeStatusPanel />
      <section class="card" aria-labelledby="list-title">
        <h2 id="list-title">Todos</h2>
        <div class="form-grid" role="search" aria-label="Buscar usuarios">
          <label class="field"><span>Buscar</span>
            <input type="search" name="search" value={search} placeholder="login, nombre o correo"
              onInput={(event) => setSearch(event.currentTarget.value)} /></label>
          <label class="field"><span>Tipo</span>
            <select name="kind" value={kind} onChange={(event) => setKind(event.currentTarget.value)}>
              <option value="">Todos</option><option value="person">Personas</option><option value="bot">Bots</option>
            </select></label>
          <label class="field"><span>Estado</span>
            <select name="state" value={state} onChange={(event) => setState(event.currentTarget.value)}>
              <option value="">Todos</option><option value="enabled">Habilitados</option><option value="disabled">Deshabilitados</option>
            </select></label>
          <label class="check"><input type="checkbox" checked={adminsOnly}
            onChange={(event) => setAdminsOnly(event.currentTarget.checked)} /> Solo administradores</label>
        </div>
        {failure && <div class="alert alert-error" role="alert" data-testid="action-error">{failure}</div>}
        <Loads loaded={{ ...subjects, data: subjects.data?.items }} empty="Ningún usuario coincide.">
          {(list) => (
            <CardTable label="Usuarios">
                <thead>
                  <tr>
                    <th scope="col">Usuario</th>
                    <th scope="col">Tipo</th>
                    <th scope="col">Correo</th>
                    <th scope="col">Estado</th>
                    <th scope="col">Alta</th>
                    <th scope="col">Última entrada</th>
                    <th scope="col">Permisos</th>
                    <th scope="col"><span class="visually-hidden">Acciones</span></th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((subject) => (
                    <Fragment key={subject.id}>
                    <tr data-testid={`subject-${subject.login}`}>
                      <td>
                        <strong>{subject.login}</strong>
                        {subject.display_name && <div class="muted small">{subject.display_name}</div>}
                      </td>
                      <td>
                        {subject.kind === "bot" ? "bot" : "persona"}
                        {subject.is_admin && <span class="badge">admin</span>}
                        {subject.break_glass && <span class="badge badge-warn">emergencia</span>}
                        {subject.writes_need_approval &&
                          <div class="muted small" data-testid={`approval-${subject.login}`}>escrituras con aprobación</div>}
                      </td>
                      <td>{subject.email ?? "—"}</td>
                      <td>
                        {subject.enabled
                          ? <span class="pill pill-ok">habilitado</span>
                          : <span class="pill pill-off">deshabilitado</span>}
                        {subject.forge && <div class="muted small" data-testid={`forge-${subject.login}`}>Forge: {subject.forge.login}</div>}
                        {subject.oidc && <div class="muted small" data-testid={`oidc-${subject.login}`}>{oidc}: {subject.oidc.email ?? subject.oidc.subject}</div>}
                        {neverActivated(subject) && subject.enabled &&
                          <div class="muted small">invitación pendiente{subject.invitation_expires_at
                            ? ` (caduca el ${when(subject.invitation_expires_at)})` : ""}</div>}
                        {subject.kind === "person" && subject.enabled && !neverActivated(subject) && !subject.has_password
                          && !subject.forge && !subject.oidc &&
                          <div class="muted small" data-testid={`no-way-in-${subject.login}`}>sin forma de entrar: necesita un enlace nuevo</div>}
                      </td>
                      <td>{when(subject.created_at)}</td>
                      <td>{subject.last_sign_in_at ? when(subject.last_sign_in_at) : <span class="muted">nunca</span>}</td>
                      <td>{subject.active_grants ?? 0}</td>
                      <td class="row-actions">
                        <RowActions>
                          <a class="button button-small" href={`/admin/credenciales?owner=${encodeURIComponent(subject.id)}`}
                            aria-label={`Credenciales (${activeCredentials(subject)}) de ${subject.login}`}
                            data-testid={`credentials-of-${subject.login}`}>Credenciales ({activeCredentials(subject)})</a>
                          <button type="button" class="button button-small" onClick={() => {
                            setFailure(null);
                            setEditing(subject);
                          }}
                            aria-label={`Editar ${subject.login}`} data-edit={subject.login}>Editar</button>
                          <RowMenu label={`Más acciones para ${subject.login}`} testId={`more-${subject.login}`}
                            items={[
                              ...(subject.enabled && !subject.last_admin
                                ? [{ label: "Deshabilitar", name: `Deshabilitar ${subject.login}`, danger: true,
                                  onSelect: () => act(subject, "disable") }] : []),
                              ...(!subject.enabled
                                ? [{ label: "Habilitar", name: `Habilitar ${subject.login}`,
                                  onSelect: () => act(subject, "enable") }] : []),
                              ...(subject.kind === "person" && subject.enabled ? [
                                { label: "Enlace nuevo", name: `Enlace nuevo para ${subject.login}`,
                                  onSelect: () => act(subject, "reset-link") },
                                ...(subject.forge && !subject.last_admin
                                  ? [{ label: "Desvincular de Forge", name: `Desvincular de Forge a ${subject.login}`,
                                    danger: true, onSelect: () => unlink(subject, "forge") }] : []),
                                ...(subject.oidc && !subject.last_admin
                                  ? [{ label: `Desvincular ${oidc}`, name: `Desvincular ${oidc} de ${subject.login}`,
                                    danger: true, onSelect: () => unlink(subject, "oidc") }] : []),
                                ...(subject.id !== me.id
                                  ? [{ label: "Cerrar sesiones", name: `Cerrar sesiones de ${subject.login}`,
                                    onSelect: () => act(subject, "logout") }] : []),
                              ] : []),
                            ]} />
                        </RowActions>
                        {subject.enabled && subject.last_admin && (
                          <span class="muted small" data-testid={`last-admin-${subject.login}`}>
                            Único administrador que puede entrar: no se puede deshabilitar ni desvincular</span>
                        )}
                      </td>
                    </tr>
                    {editing?.id === subject.id && (
                      <tr class="row-editor"><td colSpan={8}>
                        <EditSubjectForm subject={editing} onDone={(changed) => {
                          const login = editing.login;
                          setEditing(null);
                          // Back to the row's own button, not to the page's body.
                          requestAnimationFrame(() => document.querySelector<HTMLElement>(
                            `[data-edit="${CSS.escape(login)}"]`)?.focus());
                          if (changed) {
                            toast(`${changed.login} actualizado.`);
                            subjects.reload();
                          }
                        }} />
                      </td></tr>
                    )}
                    </Fragment>
                  ))}
                </tbody>
            </CardTable>
          )}
        </Loads>
        <CursorPager pages={subjects} label="Páginas de usuarios" />
      </section>
    </>
  );
}
