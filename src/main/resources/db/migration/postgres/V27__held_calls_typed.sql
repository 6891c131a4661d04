-- A held write is stored typed (a '#' in a name once turned a preview into a real write): the
-- path's decoded segments as a JSON array of strings, the query's pairs as a JSON array of
-- [name, value]. call_target keeps the encoded target for people reading the row; it is never
-- read back. Rows held before this version cannot be read as typed calls: their path becomes the
-- empty one ('[]', never sent by a held write) and those still pending or approved are expired
-- (fail closed) — the agent asks again.
ALTER TABLE write_requests ADD COLUMN call_path TEXT;
ALTER TABLE write_requests ADD COLUMN call_query TEXT;
UPDATE write_requests SET status = 'expired' WHERE status IN ('pending', 'approved');
UPDATE write_requests SET call_path = '[]', call_query = '[]' WHERE call_path IS NULL;
