-- A decision on an access request moves the access counter of V7: an approved request of a
-- delegated agent's session lends it a role through its person's grant, so every replica drops its
-- kept checks and the next call of the session is checked with that role (and a later change, with
-- the grant that lends it, is seen the same way).
CREATE TRIGGER access_changes_access_request_decided AFTER UPDATE OF status ON access_requests
    WHEN OLD.status IS NOT NEW.status
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
