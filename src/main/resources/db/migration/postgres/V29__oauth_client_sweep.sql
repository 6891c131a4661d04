-- Registered OAuth clients that never completed a login (no agent session names them) are swept a
-- day after they registered, and administrators may purge them at once: the sweep and the purge
-- look sessions up by client.
CREATE INDEX agent_sessions_by_client ON agent_sessions (client_id);
