// Agent sessions by their client and person ("Claude Code · carol"), not their ids (issue 40 item 6):
// the audit list and a row's page name a tool's session as people know it; the id stays on hover
// and in the row's page. Read once per page from the sessions the reader may see (every one for an
// administrator, their own for a person).
import { ApiError, get, type AgentSession } from "../api";
import { clientName } from "../agents/sessionText";
import { useLoad } from "./load";

async function visibleSessions(): Promise<AgentSession[]> {
  try {
    return await get<AgentSession[]>("/api/agent-sessions");
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 403) {
      return get<AgentSession[]>("/api/me/agent-sessions");
    }
    throw failure;
  }
}

/** "Claude Code · carol" for each session id the reader may see; ids it may not see are absent. */
export function useSessionNames(wanted: boolean): Map<string, string> {
  const sessions = useLoad(() => wanted ? visibleSessions() : Promise.resolve([] as AgentSession[]), [wanted]);
  return new Map((sessions.data ?? []).map((session) => [session.id, `${clientName(session)} · ${session.person.login}`]));
}
