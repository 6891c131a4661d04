-- Spec 1 §2 "Audit row": one row per proxied request, written before the request is forwarded
-- and completed when its answer (or its upgraded connection) ends.
CREATE TABLE audit (
    id            TEXT PRIMARY KEY,
    at            BIGINT NOT NULL,
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
    completed_at  BIGINT
);
CREATE INDEX audit_by_time ON audit (at);
CREATE INDEX audit_by_subject ON audit (subject_id, at);
CREATE INDEX audit_by_cluster ON audit (cluster_id, at);
