-- Issue 44: the Audit-ID (always a UUID, AuditIds) as its 16 bytes instead of its 36-character
-- text, which took 37 bytes in the table, in its key and in every index of the audit that ends in
-- (at, id), and again in the completions and their indexes. Bytes compare as the canonical text
-- does (memcmp against lowercase hex at fixed places), so every listing keeps its order and its
-- cursor. SQLite changes no column's type in place: both tables are built again (the procedure of
-- SQLite's "ALTER TABLE", section 7), with their indexes and the feed's triggers as V21-V30 left
-- them. A stored id that is not a UUID would fail the NOT NULL and stop the migration.
CREATE TABLE audit_rebuilt (
    id            BLOB NOT NULL PRIMARY KEY,
    at            INTEGER NOT NULL,
    subject_id    TEXT,
    subject_login TEXT,
    credential_id TEXT,
    cluster_id    TEXT NOT NULL,
    namespace     TEXT,
    verb          TEXT NOT NULL,
    resource      TEXT,
    name          TEXT,
    path          TEXT NOT NULL,
    client_ip     TEXT,
    status        INTEGER,
    error         TEXT,
    completed_at  INTEGER,
    channel       TEXT NOT NULL DEFAULT 'proxy' CHECK (channel IN ('proxy', 'tool')),
    tool          TEXT,
    session       TEXT,
    feed_seq      INTEGER,
    dry_run       INTEGER NOT NULL DEFAULT 0
);
INSERT INTO audit_rebuilt (id, at, subject_id, subject_login, credential_id, cluster_id, namespace, verb,
        resource, name, path, client_ip, status, error, completed_at, channel, tool, session, feed_seq, dry_run)
    SELECT unhex(replace(id, '-', '')), at, subject_id, subject_login, credential_id, cluster_id, namespace,
        verb, resource, name, path, client_ip, status, error, completed_at, channel, tool, session, feed_seq,
        dry_run
    FROM audit ORDER BY id;
DROP TABLE audit;
ALTER TABLE audit_rebuilt RENAME TO audit;
CREATE INDEX audit_by_time ON audit (at, id);
CREATE INDEX audit_by_subject ON audit (subject_id, at, id);
CREATE INDEX audit_by_cluster ON audit (cluster_id, at, id);
CREATE INDEX audit_by_credential ON audit (credential_id, at, id);
CREATE INDEX audit_by_namespace ON audit (namespace, at, id);
CREATE INDEX audit_by_verb ON audit (verb, at, id);
CREATE INDEX audit_by_resource ON audit (resource, at, id);
CREATE INDEX audit_tool_rows ON audit (at, id) WHERE channel = 'tool';
CREATE INDEX audit_by_tool ON audit (tool, at, id) WHERE tool IS NOT NULL;
CREATE INDEX audit_by_session ON audit (session, at, id) WHERE session IS NOT NULL;
CREATE INDEX audit_feed ON audit (feed_seq) WHERE feed_seq IS NOT NULL;
CREATE INDEX audit_dry_runs ON audit (at, id) WHERE dry_run = 1;
CREATE TRIGGER feed_audit_complete AFTER INSERT ON audit WHEN NEW.status IS NOT NULL
BEGIN
    UPDATE feed_counter SET value = value + 1 WHERE id = 1;
    UPDATE audit SET feed_seq = (SELECT value FROM feed_counter WHERE id = 1) WHERE id = NEW.id;
END;

CREATE TABLE audit_completion_rebuilt (
    id           BLOB NOT NULL PRIMARY KEY,
    status       INTEGER NOT NULL,
    error        TEXT,
    completed_at BIGINT NOT NULL,
    refused      INTEGER NOT NULL,
    feed_seq     INTEGER
) WITHOUT ROWID;
INSERT INTO audit_completion_rebuilt (id, status, error, completed_at, refused, feed_seq)
    SELECT unhex(replace(id, '-', '')), status, error, completed_at, refused, feed_seq
    FROM audit_completion ORDER BY id;
DROP TABLE audit_completion;
ALTER TABLE audit_completion_rebuilt RENAME TO audit_completion;
CREATE INDEX audit_completion_by_status ON audit_completion (status, id);
CREATE INDEX audit_completion_feed ON audit_completion (feed_seq) WHERE feed_seq IS NOT NULL;
CREATE INDEX audit_completion_refused ON audit_completion (id) WHERE refused = 1;
CREATE TRIGGER feed_completion AFTER INSERT ON audit_completion WHEN NEW.feed_seq IS NULL
BEGIN
    UPDATE feed_counter SET value = value + 1 WHERE id = 1;
    UPDATE audit_completion SET feed_seq = (SELECT value FROM feed_counter WHERE id = 1) WHERE id = NEW.id;
END;
