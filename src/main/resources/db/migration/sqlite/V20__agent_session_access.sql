-- An agent session that ends (revoked, a code or refresh token reused, ended by its person or an
-- administrator, the person's account events) takes access away like a revoked credential: the
-- access counter of V7 moves, so every replica drops its kept checks and its stream guard cuts the
-- session's open calls. Only the end moves it: a new access token or a rotation must not wake
-- every replica (issue 31 item 4), and last_used_at changes on every call.
CREATE TRIGGER access_changes_agent_session_end AFTER UPDATE OF ended_at ON agent_sessions
    WHEN OLD.ended_at IS NOT NEW.ended_at
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
CREATE TRIGGER access_changes_agent_session_delete AFTER DELETE ON agent_sessions
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
