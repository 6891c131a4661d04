// A small typed client for Klave's /api (spec 1 §4). Every call sends the session cookie (same
// origin) and turns {error} answers into ApiError with the server's Spanish message.

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Called when the session has ended (401 on a call that needs one); set by the app. */
let onSessionLost: (message: string) => void = () => {};

export function whenSessionLost(handler: (message: string) => void) {
  onSessionLost = handler;
}

type Method = "GET" | "POST" | "PATCH" | "DELETE";

async function call<T>(method: Method, path: string, body?: unknown, anonymous = false): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "No se pudo contactar con Klave. Comprueba la conexión y vuelve a intentarlo.");
  }
  if (response.status === 204) {
    return undefined as T;
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const message = (parsed as { error?: string } | undefined)?.error ?? `error ${response.status}`;
    if (response.status === 401 && !anonymous) {
      onSessionLost(message);
    }
    throw new ApiError(response.status, message);
  }
  return parsed as T;
}

export const get = <T>(path: string) => call<T>("GET", path);
export const post = <T>(path: string, body?: unknown) => call<T>("POST", path, body ?? {});
export const patch = <T>(path: string, body: unknown) => call<T>("PATCH", path, body);
export const del = <T>(path: string) => call<T>("DELETE", path);
/** Calls that work without a session: a 401 there is an answer, not a lost session. */
export const postAnonymous = <T>(path: string, body: unknown) => call<T>("POST", path, body, true);
export const getAnonymous = <T>(path: string) => call<T>("GET", path, undefined, true);

export async function getText(path: string): Promise<string> {
  const response = await fetch(path, { credentials: "same-origin" });
  if (!response.ok) {
    throw new ApiError(response.status, `error ${response.status}`);
  }
  return response.text();
}

export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "" && value !== false) {
      search.set(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

// ---- Shapes of the answers (snake_case, as the API sends them) ----

export interface ForgeLink { id: number; login: string }
export interface OidcLink { issuer: string; claim: string; subject: string; email: string | null }

export interface Me {
  id: string; login: string; kind: string; display_name: string; email: string | null;
  is_admin: boolean; break_glass: boolean; has_password: boolean; can_use_password: boolean;
  forge: ForgeLink | null;
  oidc: OidcLink | null;
  session_expires_at?: string | null;
}

export interface Methods { forge: boolean; org: string; oidc: boolean; oidc_name: string }

export interface ForgeSync {
  at: string; finished_at: string; replica: string; members_seen: number; disabled: number; renamed: number;
  two_factor_required: boolean | null; error: string | null;
}

export interface ForgeStatus {
  configured: boolean; org: string | null; webhook: boolean; require_org_2fa: boolean | null;
  last_sync: ForgeSync | null;
}

export interface LinkInfo {
  login: string; display_name: string; purpose: string; expires_at: string; forge_required: boolean;
}

export interface Subject {
  id: string; login: string; kind: "person" | "bot"; display_name: string; email: string | null;
  is_admin: boolean; enabled: boolean; disabled_at: string | null; break_glass: boolean;
  has_password: boolean; forge: ForgeLink | null; oidc: OidcLink | null; created_at: string;
  last_sign_in_at?: string | null; invitation_expires_at?: string | null; active_grants?: number; active_credentials?: number;
  last_admin?: boolean;
  /** A bot's only: an agent's writes with its credentials wait for an administrator's approval (spec 3 §4). */
  writes_need_approval?: boolean;
}

export interface CreatedPerson extends Omit<Subject, "disabled_at" | "has_password" | "forge" | "oidc" | "created_at"> {
  invite_link: string; invite_expires_at: string;
}

export interface Cluster {
  id: string; name: string; status: string; created_at: string; tokens_set_at: string | null;
  last_reconciliation: string | null; last_error: string | null; proxy_url: string;
  /** What the last reconciliation learned of the API server; null until one has asked. */
  kubernetes_version: string | null; aggregated_discovery: boolean | null;
}

export interface Namespace { name: string; psa_enforce: string | null }

export interface Pass { created: number; updated: number; deleted: number }

export interface Deleted {
  id: string;
  rbac_cleanup: { status: string; error: string | null; bindings_deleted: number; roles_deleted: number; lock_held: boolean };
}

export interface Grant {
  id: string; subject_id: string; subject_login: string; cluster_id: string; tier: string; scope: string;
  group: string; expires_at: string | null; note: string; created_at: string; revoked_at: string | null;
  active: boolean;
  /** The access request it came from (issue 41): standing access has none. */
  request?: GrantRequestOrigin | null;
}

export interface GrantRequestOrigin { request_id: string; origin: string; reason: string; approved_by: string | null }

export interface Tier { name: string; description: string; writes: boolean; namespace_scope: boolean; cluster_scope: boolean }

export interface Catalogue { tiers: Tier[]; protected_namespaces: string[]; pod_security_required: boolean }

export interface Credential {
  id: string; name: string; note: string; subject_id: string; subject_login: string; cluster_id: string | null;
  created_at: string; expires_at: string; status: string; revoked_at: string | null; revoke_reason: string | null;
}

export interface Issued extends Credential { token: string; kubeconfig: string; clusters: string[] }

export interface AuditRow {
  id: string; at: string; subject_id: string | null; subject: string | null; credential: string | null;
  cluster: string; namespace: string | null; verb: string; resource: string | null; name: string | null;
  path: string; status: number | null; error: string | null; client_ip: string | null; completed_at: string | null;
  /** How the request came: through the proxy, or from an agent's tool (with the agent's session, if delegated). */
  channel: "proxy" | "tool"; tool: string | null; session: string | null;
  /** Sent as a dry run (`dryRun=All`): admission and validation ran, nothing was changed. */
  dry_run: boolean;
  /** One row's page only: the access request (issue 41) whose access the request was made under. */
  access_request?: string | null;
}

export interface ControlEvent {
  id: string; at: string; type: string; actor: { id: string; login: string } | null;
  target: { id: string; login: string } | null; via: string | null; reason: string | null;
  client_ip: string | null; details: Record<string, unknown>;
}

/**
 * One page of a listing read with a cursor (credentials, grants, subjects: `?limit=` and
 * `&cursor=`): the rows, and the cursor of the next page while there is one.
 */
export interface ListPage<T> { items: T[]; next_cursor: string | null }

/** A listing's page; the audit's also says its bounded total (counted up to 10 000) and the next page's cursor. */
export interface Page<T> {
  events: T[]; page: number; page_size: number; has_more: boolean;
  total?: number; total_capped?: boolean; next_cursor?: string | null;
}

export interface OidcStatus {
  configured: boolean; issuer: string | null; domains: string[]; autolink: string | null;
  public_client: boolean | null; display_name: string | null;
  discovery: { fetched_at: string | null; failed_at: string | null; error: string | null } | null;
}

export interface Notice { code: string; level: "warning" | "info"; message: string }

export interface HealthCheck { name: string; state: "ok" | "failing" | "off"; detail: string | null }

export interface InstallationHealth { healthy: boolean; checks: HealthCheck[] }

export interface TrustRule {
  id: string; name: string; bot_subject_id: string; bot_login: string; repository_owner_id: number;
  repository_id: number; ref: string; environment: string; created_at: string;
}

export interface TrustRules {
  rules: TrustRule[]; audience: string; issuer: string; token_lifetime: string; exchange_route: string;
  exchange_url: string;
}

// ---- Agents' requests (spec 3 §3, §4 "Write approval flow") ----

export type WriteStatus = "pending" | "approved" | "denied" | "expired" | "executed";
export type AccessStatus = "pending" | "approved" | "denied" | "expired" | "cancelled";

/** Who asks: a bot with its credential, or a person's delegated agent. */
export interface RequestSubject { id: string; login: string; kind: string }

/** Who decided: the API names the person by login (an object {id, login} is read too). */
export type Decider = string | { id?: string; login: string } | null;

/** One changed field of a held write: where, and its value before and after (null: absent). */
export interface PreviewChange { path: string; before: unknown; after: unknown }

/** The held write's preview; Secret values already hidden by the server (spec 3 §8). */
export interface WritePreview {
  cluster: string; namespace: string | null; verb: string; resource: string; name: string;
  current: unknown; result: unknown; changes: PreviewChange[];
}

export interface WriteRequest {
  kind: "write"; id: string; status: WriteStatus; cluster: string; namespace: string | null; tool: string;
  verb: string; resource: string; name: string; subject: RequestSubject; created_at: string; expires_at: string;
  decided_at: string | null; decided_by: Decider; executed_at: string | null;
  /** Only on the request's own page (GET /api/agents/requests/{id}), not in the list. */
  preview?: WritePreview | null;
}

export interface AccessRequest {
  kind: "access"; id: string; status: AccessStatus; cluster: string; scope: string; role: string; minutes: number;
  reason: string; subject: RequestSubject; created_at: string; expires_at: string; decided_at: string | null;
  decided_by: Decider; grant_id: string | null; grant_expires_at: string | null;
  /** Issue 41: who asks (an agent, a person for themselves, an eligible grant's activation). */
  origin: "agent" | "person" | "eligible"; eligible_id: string | null; approvals_needed: number;
  first_approval: { by: string; at: string; comment: string | null } | null; comment: string | null;
  /** While approved: whether the access it gave runs or ended (and when, and who ended it early). */
  access: "active" | "ended" | null; ended_at: string | null; ended_by: string | null;
}

export type AgentRequest = WriteRequest | AccessRequest;

// ---- Access when it is needed (issue 41) ----

export interface AccessOptions {
  clusters: { id: string; name: string; max_minutes: number; two_approvals: boolean }[];
  tiers: string[]; min_minutes: number; default_minutes: number; reason_max: number;
}

export interface EligibleGrant {
  id: string; subject_id: string; subject_login: string; cluster_id: string; tier: string; scope: string;
  max_minutes: number; needs_approval: boolean; note: string; created_at: string; revoked_at: string | null;
}

export interface OwnAccess { requests: AccessRequest[]; eligible: EligibleGrant[] }

export interface AccessContext {
  grants: { id: string; tier: string; scope: string; expires_at: string | null }[];
  recent: AccessRequest[];
  activity: { requests: number; refused: number; days: number };
}

export interface AccessDetail { request: AccessRequest; context: AccessContext | null; decidable: boolean; own: boolean }

export interface AccessPolicy {
  cluster_id: string; max_minutes: number; two_approvals: boolean; deciders: { id: string; login: string }[];
}

export interface AgentRequests { write_requests: WriteRequest[]; access_requests: AccessRequest[] }

// ---- Agent login (spec 3 §4 "Agent login") ----

/** One permission a person may give their agent, or gave it: a role on a scope of a cluster. */
export interface AgentPermission { cluster: string; role: string; scope: string }

/** The consent page's request (GET /api/agents/authorize/{id}). */
export interface ConsentRequest {
  client: { id: string; name: string | null; uri: string | null };
  redirect_uri: string;
  /** Spec 3 §4 rule 6: anything but a loopback address gets a warning. */
  redirect_is_loopback: boolean;
  /** When this page's request expires (10 minutes), not the agent's access. */
  expires_at: string;
  /** Until when the agent keeps what it is given, and how many days that is. */
  access_until: string; access_days: number;
  permissions: AgentPermission[];
}

export type AgentSessionState = "open" | "ended" | "expired";

/** A delegated agent's session (GET /api/me/agent-sessions, GET /api/agent-sessions). */
export interface AgentSession {
  id: string;
  client: { id: string; name: string | null; uri: string | null };
  person: { id: string; login: string };
  permissions: AgentPermission[];
  writes_need_approval: boolean;
  created_at: string; expires_at: string; last_used_at: string | null;
  state: AgentSessionState; ended_at: string | null; end_reason: string | null;
}
