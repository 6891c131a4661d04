import { useEffect, useState } from "preact/hooks";
import { ApiError, get, whenSessionLost, type Me } from "./api";
import { navigateNow, Redirect, useLocation } from "./router";
import { leaveNotice } from "./session";
import { ConfirmHost } from "./ui/confirm";
import { Layout } from "./ui/Layout";
import { ErrorBox, Loading } from "./ui/states";
import { Toasts } from "./ui/toasts";
import { LoginScreen } from "./screens/LoginScreen";
import { LinkScreen } from "./screens/LinkScreen";
import { AccountScreen } from "./screens/AccountScreen";
import { UsersScreen } from "./admin/UsersScreen";
import { ClustersScreen } from "./admin/ClustersScreen";
import { ClusterScreen } from "./admin/ClusterScreen";
import { GrantsScreen } from "./admin/GrantsScreen";
import { AuditScreen } from "./admin/AuditScreen";
import { AuditDetailScreen } from "./admin/AuditDetailScreen";
import { InstallationScreen } from "./admin/InstallationScreen";
import { CredentialsScreen } from "./admin/CredentialsScreen";
import { CiScreen } from "./admin/CiScreen";
import { AgentsScreen } from "./agents/AgentsScreen";
import { AccessRequestScreen } from "./access/AccessRequestScreen";
import { AskAccessScreen } from "./access/AskAccessForm";
import { PlayerScreen } from "./recordings/PlayerScreen";
import { SessionsScreen } from "./recordings/SessionsScreen";
import { RequestScreen } from "./agents/RequestScreen";
import { ConsentScreen } from "./agents/ConsentScreen";

const PUBLIC = new Set(["/login", "/cuenta"]);

export function App() {
  const { path } = useLocation();
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [failure, setFailure] = useState<ApiError | null>(null);

  useEffect(() => {
    whenSessionLost((text) => {
      setMe(null);
      if (text !== "sesión no iniciada") {
        leaveNotice(`Tu sesión ha terminado: ${text}. Vuelve a entrar.`);
      }
      if (!PUBLIC.has(location.pathname)) {
        navigateNow(`/login?next=${encodeURIComponent(location.pathname + location.search)}`, true);
      }
    });
  }, []);

  const isPublic = PUBLIC.has(path);
  useEffect(() => {
    if (isPublic || me) {
      return;
    }
    setFailure(null);
    get<Me>("/api/me").then(setMe).catch((error: ApiError) => {
      if (error.status !== 401) {
        setFailure(error);
      }
    });
  }, [isPublic, me]);

  const chrome = (
    <>
      <Toasts />
      <ConfirmHost />
    </>
  );
  if (path === "/login") {
    return <>{chrome}<LoginScreen onSignedIn={setMe} /></>;
  }
  if (path === "/cuenta") {
    return <>{chrome}<LinkScreen onSignedIn={setMe} /></>;
  }
  if (!me) {
    return (
      <>{chrome}<main class="centered">{failure
        ? <ErrorBox text={`Klave no responde: ${failure.message}`} onRetry={() => setMe(undefined)} />
        : <Loading label="Cargando Klave…" />}</main></>
    );
  }
  return (
    <>
      {chrome}
      <Layout me={me} onSignedOut={() => setMe(null)}>
        <Route path={path} me={me} onMeChanged={setMe} />
      </Layout>
    </>
  );
}

function Route({ path, me, onMeChanged }: { path: string; me: Me; onMeChanged: (me: Me) => void }) {
  if (path === "/") {
    return <Redirect to="/mi-cuenta" />;
  }
  if (path === "/mi-cuenta") {
    return <AccountScreen me={me} onMeChanged={onMeChanged} />;
  }
  if (path === "/agentes") {
    return <AgentsScreen me={me} />;
  }
  // The consent page of an agent's login (spec 3 §4): /oauth/authorize sends the browser here; a person
  // not signed in is sent to sign in first and comes back (?next=).
  const consent = /^\/agents\/authorize\/([^/]+)$/.exec(path);
  if (consent) {
    return <ConsentScreen id={decodeURIComponent(consent[1])} />;
  }
  // The link an agent gives the person (spec 3 §2); the API answers 404 to whoever may not see it.
  const request = /^\/agents\/requests\/([^/]+)$/.exec(path);
  if (request) {
    // An access request (ar_…) — an agent's or a person's — has one page (issue 41); a write its own.
    const id = decodeURIComponent(request[1]);
    return id.startsWith("ar_") ? <AccessRequestScreen id={id} /> : <RequestScreen id={id} />;
  }
  const ownRequest = /^\/acceso\/solicitudes\/([^/]+)$/.exec(path);
  if (ownRequest) {
    return <AccessRequestScreen id={decodeURIComponent(ownRequest[1])} />;
  }
  if (path === "/sesiones") {
    return <SessionsScreen admin={me.is_admin} />;
  }
  const recorded = /^\/sesiones\/([^/]+)$/.exec(path);
  if (recorded) {
    return <PlayerScreen id={decodeURIComponent(recorded[1])} admin={me.is_admin} />;
  }
  if (path === "/acceso/pedir") {
    return <AskAccessScreen cluster={new URLSearchParams(location.search).get("cluster") ?? ""} />;
  }
  if (path.startsWith("/admin/") && !me.is_admin) {
    return (
      <section>
        <h1 tabIndex={-1}>Solo para administradores</h1>
        <p>Esta parte de Klave es solo para administradores. Vuelve a <a href="/mi-cuenta">tu cuenta</a>.</p>
      </section>
    );
  }
  if (path === "/admin/usuarios") {
    return <UsersScreen me={me} />;
  }
  if (path === "/admin/clusters") {
    return <ClustersScreen />;
  }
  const cluster = /^\/admin\/clusters\/([^/]+)$/.exec(path);
  if (cluster) {
    return <ClusterScreen id={decodeURIComponent(cluster[1])} />;
  }
  if (path === "/admin/permisos") {
    return <GrantsScreen />;
  }
  if (path === "/admin/auditoria") {
    return <AuditScreen />;
  }
  if (path === "/admin/credenciales") {
    return <CredentialsScreen me={me} />;
  }
  if (path === "/admin/ci") {
    return <CiScreen />;
  }
  if (path === "/admin/instalacion") {
    return <InstallationScreen />;
  }
  const audit = /^\/admin\/auditoria\/([^/]+)$/.exec(path);
  if (audit) {
    return <AuditDetailScreen id={decodeURIComponent(audit[1])} />;
  }
  return (
    <section>
      <h1 tabIndex={-1}>Página no encontrada</h1>
      <p>Esta dirección no existe en Klave. Vuelve a <a href="/mi-cuenta">tu cuenta</a>.</p>
    </section>
  );
}
