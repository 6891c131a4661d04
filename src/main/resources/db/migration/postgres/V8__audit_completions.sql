-- Spec 1 §2 "Audit row": a request's status, error and end, written once when it ends. Until
-- V8 the audit row itself was updated in place; on PostgreSQL every such update made a new row
-- version, and when that version did not fit on the same page, a new entry in each of audit's
-- four indexes, with the old version left for vacuum. Writing the end into a table of its own,
-- never updated, took a sixth to a quarter off PostgreSQL's CPU per request (bench/RESULTS.md,
-- session 8). Rows completed before V8, and rows written complete, keep their end in audit.
--
-- No foreign key to audit: checking it would read (SQLite) or lock (PostgreSQL) the audit row on
-- every request. Only the audit writer inserts here, and only for rows it has made durable.
CREATE TABLE audit_completion (
    id           TEXT PRIMARY KEY,
    status       INTEGER NOT NULL,
    error        TEXT,
    completed_at BIGINT NOT NULL,
    -- 1 when the credential check refused the request after its row was written: the row then
    -- reads with no resource, like any other authentication failure, which listings hide.
    refused      INTEGER NOT NULL
);
