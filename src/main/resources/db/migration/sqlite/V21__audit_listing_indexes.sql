-- The audit listing at scale (issue 32): every filter of GET /api/audit has an index that yields
-- its rows newest first in the listing's own order (at, then id), so a page — the first, or the
-- next one after a cursor — reads about fifty index entries instead of sorting every match. The
-- earlier (column, at) indexes are replaced by (column, at, id): the id breaks ties of one
-- millisecond without a sort. The status of a completed request lives in audit_completion; its
-- index serves the status filter from that side.
DROP INDEX audit_by_time;
DROP INDEX audit_by_subject;
DROP INDEX audit_by_cluster;
CREATE INDEX audit_by_time ON audit (at, id);
CREATE INDEX audit_by_subject ON audit (subject_id, at, id);
CREATE INDEX audit_by_cluster ON audit (cluster_id, at, id);
CREATE INDEX audit_by_credential ON audit (credential_id, at, id);
CREATE INDEX audit_by_namespace ON audit (namespace, at, id);
CREATE INDEX audit_by_verb ON audit (verb, at, id);
CREATE INDEX audit_by_resource ON audit (resource, at, id);
CREATE INDEX audit_completion_by_status ON audit_completion (status, id);
DROP INDEX audit_tool_rows;
DROP INDEX audit_by_tool;
DROP INDEX audit_by_session;
CREATE INDEX audit_tool_rows ON audit (at, id) WHERE channel = 'tool';
CREATE INDEX audit_by_tool ON audit (tool, at, id) WHERE tool IS NOT NULL;
CREATE INDEX audit_by_session ON audit (session, at, id) WHERE session IS NOT NULL;
